// Package hostmain is what our language hosts (langhost, pyhost, gohost) share: starting as the
// engine expects a language host to start, and the answers that are the same for every
// language.
package hostmain

import (
	"context"
	"fmt"
	"os"
	"os/signal"
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
