// Package hostmain is what our language hosts (langhost, pyhost, gohost, javahost) share:
// starting as the engine expects a language host to start, the answers that are the same for
// every language, and the pieces of a run the Go and Java hosts do alike.
package hostmain

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Serve serves h as the official hosts do: on a free loopback port that it prints as its first
// line of output (the engine reads it), until an interrupt or until the engine at
// engineAddress stops answering its health check (a host nobody will call again must not run
// forever, e.g. after the engine was killed with SIGKILL).
func Serve(name, engineAddress string, h pulumirpc.LanguageRuntimeServer) {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	stop := make(chan bool)
	go func() {
		<-ctx.Done()
		close(stop)
	}()
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, cancel); err != nil {
			Fail(name, "could not start the engine health check: %v", err)
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, h)
			return nil
		},
	})
	if err != nil {
		Fail(name, "could not start the RPC server: %v", err)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		Fail(name, "%v", err)
	}
}

// Args is what the engine tells every host on its command line: its own address, and where a
// program sends its traces (the Node.js and Python hosts pass it on; the others accept it).
type Args struct {
	EngineAddress string
	Tracing       string
}

// Start parses the command line as the engine gives it to a host (flags, then the engine's
// address; a host declares flags of its own with the flag package before) and serves the host
// that newHost makes for those arguments.
func Start(name string, newHost func(args Args) pulumirpc.LanguageRuntimeServer) {
	tracing := flag.String("tracing", "", "Zipkin-compatible tracing endpoint, passed to the program")
	flag.Parse()
	args := Args{EngineAddress: flag.Arg(0), Tracing: *tracing}
	Serve(name, args.EngineAddress, newHost(args))
}

// Fail says what went wrong, naming the host, and exits.
func Fail(name, format string, args ...any) {
	fmt.Fprintf(os.Stderr, name+": "+format+"\n", args...)
	os.Exit(1)
}

// Base answers what every host of ours answers alike: its version, and no plugins or packages
// of its own to discover (projects name the plugins they use in Pulumi.yaml). A host embeds it
// in place of pulumirpc.UnimplementedLanguageRuntimeServer.
type Base struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	Version string
}

func (b *Base) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: b.Version}, nil
}

func (b *Base) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (b *Base) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// RunConfig is the run's stack config and secret keys as the JSON the Go and Java SDKs read from
// PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS: "" for no config (the variable is then left out),
// `[]` for no secret keys, never `null`.
func RunConfig(req *pulumirpc.RunRequest) (config, secretKeys string, err error) {
	if req.GetConfig() != nil {
		b, err := json.Marshal(req.GetConfig())
		if err != nil {
			return "", "", err
		}
		config = string(b)
	}
	keys := req.GetConfigSecretKeys()
	if keys == nil {
		keys = []string{}
	}
	b, err := json.Marshal(keys)
	return config, string(b), err
}

// Environ is this process's environment and each name=value of vars whose value is not empty:
// an SDK reads a variable that is there but empty as a value given.
func Environ(vars [][2]string) []string {
	env := os.Environ()
	for _, v := range vars {
		if v[1] != "" {
			env = append(env, v[0]+"="+v[1])
		}
	}
	return env
}

// Command runs a program in dir with env, its output the user's. A cancelled run (the engine
// interrupted) interrupts it first, so it can finish its in-flight calls, and kills it 5 s later.
func Command(ctx context.Context, dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// StringOption is the runtime option key of Pulumi.yaml, which must be a string: "" when absent.
func StringOption(options map[string]any, key string) (string, error) {
	v, ok := options[key]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s option must be a string", key)
	}
	return s, nil
}

// About answers `pulumi about` for a language whose tool prints its version alone on a line:
// the tool as found on $PATH, and what `tool args...` prints, without prefix ("v", "go").
func About(ctx context.Context, tool, prefix string, args ...string) (*pulumirpc.AboutResponse, error) {
	path, err := exec.LookPath(tool)
	if err != nil {
		return nil, fmt.Errorf("could not find %s on the $PATH", tool)
	}
	out, err := exec.CommandContext(ctx, path, args...).Output()
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: path, Version: strings.TrimPrefix(strings.TrimSpace(string(out)), prefix)}, nil
}
