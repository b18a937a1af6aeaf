// Command pulumi-language-go is a small Go language host for the Pulumi engine.
//
// Why it exists: the official host (module github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3)
// is its own Go module, and the Go module proxy reachable from our machines refuses it
// (403) as it refuses the official Node.js host (docs/contributing.md, "The Pulumi CLI").
// The engine's Go generator (pkg/v3/codegen/go) and the Go SDK (sdk/v3) are served.
//
// What it does, as the official host does:
//   - GeneratePackage: `pulumi package gen-sdk --language go` through pkg/v3/codegen/go;
//   - Run: `go build` the program (or run runtime.options.binary), then run it with the
//     engine's address, the stack's config and the run's settings in PULUMI_* variables,
//     mapping exit code 32 (error already shown) to a bail;
//   - GetProgramDependencies (dependencies.go): the go.mod's requirements, for `pulumi about`.
//
// Plugin discovery returns nothing (projects name their plugins in Pulumi.yaml), and there is
// no debugger attach, `go run` fallback, `pulumi new`/install/convert or packing.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-cims/pulumi-cli/hostmain"
	"pulumi-cims/pulumi-cli/sdkgen"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "3.0.0"

type host struct {
	hostmain.Base
	engineAddress string
}

func main() {
	hostmain.Start("pulumi-language-go", func(args hostmain.Args) pulumirpc.LanguageRuntimeServer {
		return &host{Base: hostmain.Base{Version: version}, engineAddress: args.EngineAddress}
	})
}

func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	return hostmain.About(ctx, "go", "go", "env", "GOVERSION")
}

// GeneratePackage serves `pulumi package gen-sdk --language go`. Go has no overlays, as in
// the official host.
func (h *host) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if len(req.GetExtraFiles()) > 0 {
		return nil, errors.New("overlays are not supported for Go")
	}
	return sdkgen.Generate(req, func(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
		return codegen.GeneratePackage("pulumi-language-go", pkg, req.GetLocalDependencies())
	})
}

// Run builds the program and runs it; a Go program reads everything about the run from
// its environment (sdk/v3/go/pulumi's RunWithContext).
func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	options := req.GetInfo().GetOptions().AsMap()
	binary, err := hostmain.StringOption(options, "binary")
	if err != nil {
		return nil, err
	}
	buildTarget, err := hostmain.StringOption(options, "buildTarget")
	if err != nil {
		return nil, err
	}
	if binary != "" && buildTarget != "" {
		return nil, errors.New("binary and buildTarget cannot both be specified")
	}
	env, err := runEnv(req, h.engineAddress)
	if err != nil {
		return nil, fmt.Errorf("failed to prepare environment: %w", err)
	}

	program := binary
	if binary != "" {
		if program, err = exec.LookPath(binary); err != nil {
			return nil, fmt.Errorf("unable to find '%s' executable: %w", binary, err)
		}
	} else {
		programDir := req.GetInfo().GetProgramDirectory()
		if program, err = compile(ctx, programDir, buildTarget); err != nil {
			return nil, err
		}
		if buildTarget == "" {
			defer os.Remove(program)
		}
	}

	cmd := hostmain.Command(ctx, req.GetPwd(), env, program)
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return &pulumirpc.RunResponse{Error: err.Error()}, nil
		}
		if exitErr.ExitCode() == constant.ExitStatusLoggedError {
			return &pulumirpc.RunResponse{Bail: true}, nil
		}
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("program exited with non-zero exit code: %d", exitErr.ExitCode()),
		}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// compile runs `go build` in the program's directory with the official host's flags, into
// outfile or a temporary file, and returns the binary's path. The compiler's output goes to
// the user as it is.
func compile(ctx context.Context, dir, outfile string) (string, error) {
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(matches) == 0 {
		return "", fmt.Errorf("no Go files to build in %s: a Go program's main package must be in the project directory", dir)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("unable to find 'go' on the $PATH; install Go to run Go programs")
	}
	if outfile == "" {
		f, err := os.CreateTemp("", "pulumi-go.*")
		if err != nil {
			return "", fmt.Errorf("unable to create go program temp file: %w", err)
		}
		outfile = f.Name()
		if err := f.Close(); err != nil {
			return "", err
		}
	}
	// -buildvcs=false: a program in a directory without its VCS metadata still builds.
	cmd := exec.CommandContext(ctx, gobin, "build", "-buildvcs=false", "-o", outfile, "-trimpath", "-ldflags", "-w -s")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("error in compiling Go: unable to run `go build`: %w", err)
	}
	return outfile, nil
}

// runEnv is the environment sdk/v3/go/pulumi reads a run from: the names are its own.
func runEnv(req *pulumirpc.RunRequest, engineAddress string) ([]string, error) {
	config, secrets, err := hostmain.RunConfig(req)
	if err != nil {
		return nil, err
	}
	return hostmain.Environ([][2]string{
		{pulumi.EnvOrganization, req.GetOrganization()},
		{pulumi.EnvProject, req.GetProject()},
		{pulumi.EnvPulumiRootDirectory, req.GetInfo().GetRootDirectory()},
		{pulumi.EnvStack, req.GetStack()},
		{pulumi.EnvConfig, config},
		{pulumi.EnvConfigSecretKeys, secrets},
		{pulumi.EnvDryRun, strconv.FormatBool(req.GetDryRun())},
		{pulumi.EnvParallel, strconv.Itoa(int(req.GetParallel()))},
		{pulumi.EnvMonitor, req.GetMonitorAddress()},
		{pulumi.EnvEngine, engineAddress},
	}), nil
}
