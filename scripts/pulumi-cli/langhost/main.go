// Command pulumi-language-nodejs is a minimal Node.js language host for the Pulumi engine.
//
// Why it exists: the official host (module
// github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) is its own Go module
// with no tags, and the Go module proxy reachable from our machines refuses every version
// of it with `403 This module version is not available.` (see docs/contributing.md, "The Pulumi CLI").
// The engine itself (pkg/v3) and the protocol (sdk/v3) are served, so we build the real
// CLI and this small host against the same sdk/v3 protos.
//
// What it does: exactly what the official host does for `pulumi preview/up/refresh/
// destroy` of a Node.js program: it starts `node @pulumi/pulumi/cmd/run` (the real Node
// runtime from the program's node_modules) with the same flags and environment, in the
// program directory, and maps its exit code (32 = error already shown to the user).
// GetProgramDependencies (dependencies.go) lists the program's packages from its lock file for
// `pulumi about`, with the official host's own code (sdk/v3/nodejs/npm).
// GetRequiredPackages (packages.go) reports the resource plugins that the packages in
// node_modules name in their package.json, as the official host does. RunPlugin
// (runplugin.go) starts policy packs and other `runtime: nodejs` plugins. If the official
// host is on PATH, scripts/pulumi prefers it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-cims/pulumi-cli/hostmain"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "3.0.0"

// exitCodeUserActionable is what @pulumi/pulumi/cmd/run exits with after it has already
// printed an actionable message; the engine must then bail without printing more.
const exitCodeUserActionable = 32

type host struct {
	hostmain.Base
	engineAddress string
	tracing       string
}

func main() {
	flag.Bool("typescript", true, "accepted for compatibility; the project's runtime options decide")
	flag.String("root", "", "accepted for compatibility")
	hostmain.Start("pulumi-language-nodejs", func(args hostmain.Args) pulumirpc.LanguageRuntimeServer {
		return &host{Base: hostmain.Base{Version: version}, engineAddress: args.EngineAddress, tracing: args.Tracing}
	})
}

func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	return hostmain.About(ctx, "node", "v", "--version")
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the $PATH; install Node.js 20 or later"}, nil
	}
	runPath, err := resolveModule(ctx, node, req.GetPwd(), "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "It looks like the Pulumi SDK has not been installed " +
			"(could not resolve @pulumi/pulumi/cmd/run from " + req.GetPwd() + "). Have you run npm install?"}, nil
	}

	options, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	args := append(strings.Fields(options.nodeargs), runPath)
	args = append(args, runFlags(req, h.engineAddress, h.tracing)...)
	args = append(args, req.GetProgram())
	args = append(args, req.GetArgs()...)

	env, err := runEnv(req, options)
	if err != nil {
		return nil, err
	}

	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitCodeUserActionable {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// runFlags are the flags @pulumi/pulumi/cmd/run reads (see its index.js).
func runFlags(req *pulumirpc.RunRequest, engineAddress, tracing string) []string {
	flags := []string{"--monitor", req.GetMonitorAddress(), "--pwd", req.GetPwd()}
	add := func(name, value string) {
		if value != "" {
			flags = append(flags, name, value)
		}
	}
	add("--engine", engineAddress)
	add("--project", req.GetProject())
	add("--stack", req.GetStack())
	add("--organization", req.GetOrganization())
	add("--root-directory", req.GetInfo().GetRootDirectory())
	add("--tracing", tracing)
	if req.GetParallel() > 1 {
		flags = append(flags, "--parallel", strconv.Itoa(int(req.GetParallel())))
	}
	if req.GetDryRun() {
		flags = append(flags, "--dry-run")
	}
	return flags
}

// runEnv passes config the way the Node runtime expects it, plus the project's runtime options.
func runEnv(req *pulumirpc.RunRequest, options nodeOptions) ([]string, error) {
	// A nil map would marshal as `null`, which the Node runtime cannot read.
	configMap := req.GetConfig()
	if configMap == nil {
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secrets, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secrets),
	)
	return append(env, typescriptEnv(options)...), nil
}

// typescriptEnv tells the Node runtime whether (and with which tsconfig) to load TypeScript,
// from the project's runtime options; it is on unless `typescript: false` says otherwise.
func typescriptEnv(options nodeOptions) []string {
	env := []string{"PULUMI_NODEJS_TYPESCRIPT=" + strconv.FormatBool(options.typescript)}
	if options.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+options.tsconfig)
	}
	return env
}

// resolveModule finds a module as the program itself would, from its directory, so the
// program's own copy of @pulumi/pulumi runs it.
func resolveModule(ctx context.Context, node, dir, module string) (string, error) {
	cmd := exec.CommandContext(ctx, node, "-e", "console.log(require.resolve(process.argv[1]))", module)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", err
	}
	path := strings.TrimSpace(string(out))
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("unexpected module path %q", path)
	}
	return path, nil
}
