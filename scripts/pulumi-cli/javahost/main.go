// Command pulumi-language-java is a small Java language host for the Pulumi engine.
//
// Why it exists: the official host is built from github.com/pulumi/pulumi-java, whose releases
// ship it only as a prebuilt binary, which our machines cannot download. Its Go module
// (github.com/pulumi/pulumi-java/pkg) is served at v1.12.0, and with it the Java generator
// (pkg/codegen/java) that the official host uses; its executors are an internal package, so
// this host runs the two it needs the way they do.
//
// What it does, as the official host does:
//   - GeneratePackage: `pulumi package gen-sdk --language java` through pkg/codegen/java, after
//     the same deduplication of types whose names differ only in case;
//   - Run: a jar named by runtime.options.binary runs with `java -jar`; a Maven project (a
//     pom.xml in the program's directory) with `./mvnw` or `mvn ... compile exec:java`; either
//     way with the engine's address, the stack's config and the run's settings in PULUMI_*
//     variables, which the Java SDK reads.
//
// Plugin discovery returns nothing (projects name their plugins in Pulumi.yaml); Gradle, JBang
// and sbt projects, debugger attach, `pulumi new`/install/convert and packing are not served.
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
	"regexp"
	"strconv"
	"strings"

	codegen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-cims/pulumi-cli/hostmain"
	"pulumi-cims/pulumi-cli/sdkgen"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "1.12.0"

type host struct {
	hostmain.Base
	engineAddress string
}

func main() {
	flag.String("root", "", "accepted for compatibility")
	hostmain.Start("pulumi-language-java", func(args hostmain.Args) pulumirpc.LanguageRuntimeServer {
		return &host{Base: hostmain.Base{Version: version}, engineAddress: args.EngineAddress}
	})
}

var javaVersion = regexp.MustCompile(`version "([^"]+)"`)

func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errors.New("could not find java on the $PATH")
	}
	// `java -version` writes to stderr.
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("failed to run java -version: %w", err)
	}
	v := ""
	if m := javaVersion.FindSubmatch(out); m != nil {
		v = string(m[1])
	}
	return &pulumirpc.AboutResponse{Executable: java, Version: v}, nil
}

// GeneratePackage serves `pulumi package gen-sdk --language java`. Java has historically merged
// types whose names differ only in case; the official host does so before binding, and so do we.
func (h *host) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, err
	}
	deduped, diags, err := codegen.DeduplicateTypes(&spec)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	b, err := json.Marshal(deduped)
	if err != nil {
		return nil, err
	}
	req.Schema = string(b)
	return sdkgen.Generate(req, func(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
		return codegen.GeneratePackage(
			"pulumi-language-java", pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), false)
	})
}

// Run runs the program with the executor the official host would pick for it.
func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	name, args, err := executor(dir, req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	env, err := runEnv(req, h.engineAddress)
	if err != nil {
		return nil, fmt.Errorf("failed to prepare environment: %w", err)
	}
	cmd := hostmain.Command(ctx, dir, env, name, args...)
	if err := cmd.Run(); err != nil {
		line := strings.Join(cmd.Args, " ")
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("'%s' exited with non-zero exit code: %d", line, exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing '%s': %v", line, err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// executor is the command that runs the program in dir: the official host's jar executor
// (runtime.options.binary ending in .jar), else its Maven one (the Maven wrapper first).
func executor(dir string, options map[string]any) (string, []string, error) {
	binary, err := hostmain.StringOption(options, "binary")
	if err != nil {
		return "", nil, err
	}
	useExecutor, err := hostmain.StringOption(options, "use-executor")
	if err != nil {
		return "", nil, err
	}
	if strings.EqualFold(filepath.Ext(binary), ".jar") {
		java, err := exec.LookPath("java")
		if err != nil {
			return "", nil, errors.New("unable to find 'java' on the $PATH; install a JDK to run Java programs")
		}
		return java, []string{"-jar", filepath.Clean(binary)}, nil
	}
	if _, err := os.Stat(filepath.Join(dir, "pom.xml")); err == nil || strings.Contains(useExecutor, "mvn") {
		mvn, err := lookPath(dir, useExecutor, "./mvnw", "mvn")
		if err != nil {
			return "", nil, err
		}
		// Maven's own output at warning and above only, as the official host asks.
		return mvn, []string{"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "--no-transfer-progress", "compile", "exec:java"}, nil
	}
	return "", nil, fmt.Errorf("no pom.xml in %s and no runtime.options.binary jar: this Java host runs Maven "+
		"projects and jars (Gradle, JBang and sbt projects need the official pulumi-language-java)", dir)
}

// lookPath finds the first of the candidates (use-executor alone when given): a relative one in
// dir, another on PATH.
func lookPath(dir, useExecutor string, candidates ...string) (string, error) {
	if useExecutor != "" {
		candidates = []string{useExecutor}
	}
	for _, c := range candidates {
		if strings.HasPrefix(c, "./") {
			p := filepath.Join(dir, c)
			if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
				return p, nil
			}
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("could not find %s on the $PATH: install Maven to run a Maven project", strings.Join(candidates, " or "))
}

// runEnv is the environment the Java SDK reads a run from, named as the official host names it.
func runEnv(req *pulumirpc.RunRequest, engineAddress string) ([]string, error) {
	config, secrets, err := hostmain.RunConfig(req)
	if err != nil {
		return nil, err
	}
	return hostmain.Environ([][2]string{
		{"PULUMI_MONITOR", req.GetMonitorAddress()},
		{"PULUMI_ENGINE", engineAddress},
		{"PULUMI_ORGANIZATION", req.GetOrganization()},
		{"PULUMI_PROJECT", req.GetProject()},
		{"PULUMI_STACK", req.GetStack()},
		{"PULUMI_PWD", req.GetPwd()},
		{"PULUMI_DRY_RUN", strconv.FormatBool(req.GetDryRun())},
		{"PULUMI_PARALLEL", strconv.Itoa(int(req.GetParallel()))},
		{"PULUMI_CONFIG", config},
		{"PULUMI_CONFIG_SECRET_KEYS", secrets},
	}), nil
}
