package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// RunPlugin starts a plugin whose PulumiPlugin.yaml or PulumiPolicy.yaml says `runtime: nodejs`,
// as the official host does: since v3.221 the engine starts every such plugin, policy packs
// included, through the language host instead of through a shim binary of its own. The plugin's
// stdout and stderr go back to the engine over the stream (the engine reads the plugin's port
// from its stdout); the engine ends the plugin by cancelling the call, which kills the process.
func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	ctx := server.Context()
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	node, err := exec.LookPath("node")
	if err != nil {
		return errors.New("could not find node on the $PATH; install Node.js 20 or later")
	}
	dir := req.GetInfo().GetProgramDirectory()
	options, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return err
	}
	env := append(req.GetEnv(), typescriptEnv(options)...)

	// Policy packs run through @pulumi/pulumi's own policy-pack runner, which takes the pack's
	// directory last; any other plugin runs through the generic plugin runner, directory first.
	isPolicyPack := req.GetKind() == string(apitype.AnalyzerPlugin)
	module := "@pulumi/pulumi/cmd/run-plugin"
	if isPolicyPack {
		module = "@pulumi/pulumi/cmd/run-policy-pack"
	}
	runPath, err := resolveModule(ctx, node, dir, module)
	if err != nil {
		return fmt.Errorf("could not resolve %s from %s; run `npm install` there so @pulumi/pulumi "+
			"(3.248 or later) is installed: %w", module, dir, err)
	}
	args := append([]string{runPath}, strings.Fields(options.nodeargs)...)
	if isPolicyPack {
		args = append(append(args, req.GetArgs()...), dir)
	} else {
		args = append(append(args, dir), req.GetArgs()...)
	}

	// The policy-pack runner reads the stack it checks from its environment, which the engine
	// only tells a policy pack over gRPC (ConfigureStack). The SDK's proxy answers that call
	// first, then forwards every other call to the pack once the pack is up.
	var proxy *sdk.PolicyProxy
	if isPolicyPack {
		proxy, stdout, err = sdk.NewPolicyProxy(ctx, stdout)
		if err != nil {
			return fmt.Errorf("could not start the policy pack proxy: %w", err)
		}
		config, err := proxy.AwaitConfiguration(ctx)
		if err != nil {
			return fmt.Errorf("could not get the stack configuration for the policy pack: %w", err)
		}
		if config != nil {
			env, err = appendPolicyEnv(env, config)
			if err != nil {
				return err
			}
		}
	}

	cmd := exec.CommandContext(ctx, node, args...)
	// Policy packs have always run in their own directory; other plugins in the engine's.
	cmd.Dir = req.GetPwd()
	if isPolicyPack {
		cmd.Dir = dir
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr

	err = cmd.Start()
	if err == nil {
		if proxy != nil {
			err = proxy.Attach(ctx, cmd)
		} else {
			err = cmd.Wait()
		}
	}
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if status, ok := exitErr.Sys().(syscall.WaitStatus); ok {
				return fmt.Errorf("Program exited with non-zero exit code: %d", status.ExitStatus())
			}
			return fmt.Errorf("Program exited unexpectedly: %w", exitErr)
		}
		return fmt.Errorf("Problem executing plugin program (could not run language executor): %w", err)
	}
	return closer.Close()
}

// appendPolicyEnv passes the stack a policy pack checks the way @pulumi/pulumi's runtime reads it.
func appendPolicyEnv(env []string, config *pulumirpc.AnalyzerStackConfigureRequest) ([]string, error) {
	add := func(key, value string) {
		if value != "" {
			env = append(env, key+"="+value)
		}
	}
	add("PULUMI_NODEJS_ORGANIZATION", config.GetOrganization())
	add("PULUMI_NODEJS_PROJECT", config.GetProject())
	add("PULUMI_NODEJS_STACK", config.GetStack())
	add("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(config.GetDryRun()))
	if config.GetConfig() != nil {
		configJSON, err := json.Marshal(config.GetConfig())
		if err != nil {
			return nil, fmt.Errorf("could not marshal the stack configuration: %w", err)
		}
		add("PULUMI_CONFIG", string(configJSON))
	}
	return env, nil
}
