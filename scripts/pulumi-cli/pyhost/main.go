// Command pulumi-language-python is a minimal Python language host for the Pulumi engine.
//
// Why it exists: the official host (module
// github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3) is its own Go module,
// and the Go module proxy reachable from our machines refuses it with `403 This module
// version is not available.` (see docs/contributing.md, "The Pulumi CLI"). The engine
// (pkg/v3), the protocol and the Python toolchain code (sdk/v3) and the Python code
// generator (pkg/v3/codegen/python) are served, so we build the real CLI and this small
// host against the same modules.
//
// What it does: what the official host does for `pulumi preview/up/refresh/destroy/import`
// of a Python program and for `pulumi package gen-sdk --language python`:
//   - Run starts pulumi-language-python-exec (shipped beside this binary, same flags and
//     exit codes as upstream's) with the interpreter of the project's toolchain (`virtualenv`,
//     `toolchain: pip|poetry|uv` runtime options, as sdk/v3/python/toolchain resolves them),
//     config in PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS, and maps exit code 32 (an
//     error already shown to the user) to a bail.
//   - GetRequiredPackages reports the installed packages that ship a pulumi-plugin.json
//     (a generated SDK such as pulumi_cims), as upstream does; About and
//     GetProgramDependencies answer `pulumi about`.
//   - GeneratePackage writes a Python SDK from a schema with the upstream generator, and
//     GenerateProgram the Python code `pulumi import` writes for what it adopted.
//
// Left out, as the engine needs none of them for those commands: InstallDependencies
// (`pulumi install`; create the virtualenv with pip), debugging, type checkers, Pack, Link,
// RunPlugin and GenerateProject (`pulumi convert`). The engine reports them as unimplemented.
package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"

	"pulumi-cims/pulumi-cli/hostmain"
	"pulumi-cims/pulumi-cli/sdkgen"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "3.0.0"

const (
	// execName is the script that runs the program, looked up beside this binary as upstream does.
	execName = "pulumi-language-python-exec"
	// exitCodeUserActionable is what the exec script exits with after it has already shown an
	// actionable message; the engine must then bail without printing more.
	exitCodeUserActionable = 32
)

type host struct {
	hostmain.Base
	exec          string
	engineAddress string
	tracing       string
}

func main() {
	useExecutor := flag.String("use-executor", "", "run programs with this script instead of the one beside the host")
	showVersion := flag.Bool("version", false, "print the host's version and exit")
	hostmain.Start("pulumi-language-python", func(args hostmain.Args) pulumirpc.LanguageRuntimeServer {
		if *showVersion {
			fmt.Println(version)
			os.Exit(0)
		}
		return &host{Base: hostmain.Base{Version: version}, exec: executor(*useExecutor), engineAddress: args.EngineAddress, tracing: args.Tracing}
	})
}

// executor is the script that runs programs: the one given, or the one beside the host.
func executor(given string) string {
	if given != "" {
		return given
	}
	self, err := os.Executable()
	script := filepath.Join(filepath.Dir(self), execName)
	if _, statErr := os.Stat(script); err != nil || statErr != nil {
		hostmain.Fail("pulumi-language-python", "missing executor %s beside the host; rebuild with scripts/pulumi", script)
	}
	return script
}

// pythonToolchain resolves the interpreter the project asked for, as upstream does: a
// `virtualenv` relative to the project's root, or `toolchain: poetry|uv`, else python on PATH.
func pythonToolchain(info *pulumirpc.ProgramInfo) (toolchain.Toolchain, error) {
	opts := toolchain.PythonOptions{Root: info.GetRootDirectory(), ProgramDir: info.GetProgramDirectory()}
	options := info.GetOptions().AsMap()
	if v, ok := options["virtualenv"]; ok {
		s, isString := v.(string)
		if !isString {
			return nil, errors.New("the runtime option virtualenv must be a string (a directory, e.g. venv)")
		}
		opts.Virtualenv = s
	}
	if v, ok := options["toolchain"]; ok {
		switch v {
		case "pip":
			opts.Toolchain = toolchain.Pip
		case "poetry":
			opts.Toolchain = toolchain.Poetry
		case "uv":
			opts.Toolchain = toolchain.Uv
		default:
			return nil, fmt.Errorf("unsupported toolchain option %v: use pip, poetry or uv", v)
		}
	}
	if _, ok := options["typechecker"]; ok {
		return nil, errors.New("the runtime option typechecker is not supported by this language host; remove it")
	}
	return toolchain.ResolveToolchain(opts)
}

// pluginPackagesScript prints each installed distribution that ships a pulumi-plugin.json
// beside its top-level module, with that file's contents: how a generated SDK names the
// resource plugin it needs.
const pluginPackagesScript = `
import importlib.metadata, json, os
found = []
for dist in importlib.metadata.distributions():
    for f in dist.files or []:
        if f.name == "pulumi-plugin.json" and len(f.parts) == 2:
            try:
                with open(dist.locate_file(f)) as fh:
                    found.append({"dist": dist.metadata["Name"], "version": dist.version, "plugin": json.load(fh)})
            except (OSError, ValueError):
                pass
print(json.dumps(found))
`

type pluginPackage struct {
	Dist    string                  `json:"dist"`
	Version string                  `json:"version"`
	Plugin  plugin.PulumiPluginJSON `json:"plugin"`
}

func (h *host) GetRequiredPackages(
	ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	tc, err := pythonToolchain(req.GetInfo())
	if err != nil {
		return nil, err
	}
	cmd, err := tc.Command(ctx, "-c", pluginPackagesScript)
	if err != nil {
		return nil, err
	}
	out, err := cmd.Output()
	if err != nil {
		// Upstream treats an environment it cannot list as one with no packages: Run then
		// reports the real problem (no interpreter, no pulumi SDK) with its own message.
		return &pulumirpc.GetRequiredPackagesResponse{}, nil
	}
	var found []pluginPackage
	if err := json.Unmarshal(out, &found); err != nil {
		return nil, fmt.Errorf("reading the installed packages' pulumi-plugin.json: %w", err)
	}
	packages := []*pulumirpc.PackageDependency{}
	for _, p := range found {
		if !p.Plugin.Resource {
			continue
		}
		name, v := p.Plugin.Name, p.Plugin.Version
		if name == "" {
			name = strings.TrimPrefix(p.Dist, "pulumi-")
		}
		if v == "" {
			v = p.Version
		}
		packages = append(packages, &pulumirpc.PackageDependency{
			Name: name, Version: "v" + strings.TrimPrefix(v, "v"), Kind: "resource", Server: p.Plugin.Server,
		})
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	info := req.GetInfo()
	if info == nil {
		info = &pulumirpc.ProgramInfo{}
	}
	tc, err := pythonToolchain(info)
	if err != nil {
		return nil, err
	}
	about, err := tc.About(ctx)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: about.PythonExecutable, Version: about.PythonVersion.String()}, nil
}

// GetProgramDependencies lists the program's installed packages (`pulumi about` shows them).
func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	tc, err := pythonToolchain(req.GetInfo())
	if err != nil {
		return nil, err
	}
	packages, err := tc.ListPackages(ctx, req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("failed to get python dependencies: %w", err)
	}
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, p := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	tc, err := pythonToolchain(req.GetInfo())
	if err != nil {
		return nil, err
	}
	if err := tc.ValidateVenv(ctx); err != nil {
		return nil, err
	}
	cmd, err := tc.Command(ctx, append([]string{h.exec}, runArgs(req, h.engineAddress, h.tracing)...)...)
	if err != nil {
		return nil, err
	}
	env, err := runEnv(req)
	if err != nil {
		return nil, err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitCodeUserActionable {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", exitErr.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("problem executing program (could not run language executor): %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// runArgs are the exec script's flags, each given only when set, then the entry point (the
// program directory or file) and the program's own arguments.
func runArgs(req *pulumirpc.RunRequest, engineAddress, tracing string) []string {
	var args []string
	add := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", engineAddress)
	add("project", req.GetProject())
	add("root_directory", req.GetInfo().GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", req.GetPwd())
	add("dry_run", strconv.FormatBool(req.GetDryRun()))
	add("parallel", strconv.Itoa(int(req.GetParallel())))
	add("tracing", tracing)
	add("organization", req.GetOrganization())
	entry := req.GetInfo().GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	return append(append(args, entry), req.GetArgs()...)
}

// runEnv passes config as the Python SDK reads it (pulumi.runtime.get_config_env and
// get_config_secret_keys_env).
func runEnv(req *pulumirpc.RunRequest) ([]string, error) {
	var env []string
	if config := req.GetConfig(); config != nil {
		data, err := json.Marshal(config)
		if err != nil {
			return nil, err
		}
		env = append(env, "PULUMI_CONFIG="+string(data))
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	data, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return append(env, "PULUMI_CONFIG_SECRET_KEYS="+string(data)), nil
}

// GeneratePackage serves `pulumi package gen-sdk --language python` with the engine's own
// Python generator, as the official host does.
func (h *host) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return sdkgen.Generate(req, func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error) {
		return codegen.GeneratePackage("pulumi-language-python", pkg, req.GetExtraFiles(), loader)
	})
}

// GenerateProgram turns Pulumi's program IR into Python: what `pulumi import` writes for the
// resources it adopted (`--out`, or printed).
func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	parser := hclsyntax.NewParser()
	for name, contents := range req.GetSource() {
		if err := parser.ParseFile(strings.NewReader(contents), name); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	// Python programs read invoke results as outputs, as upstream's host generates them.
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.GetStrict() {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiags := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiags}, nil
	}
	files, genDiags, err := codegen.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source: files, Diagnostics: append(rpcDiags, plugin.HclDiagnosticsToRPCDiagnostics(genDiags)...),
	}, nil
}
