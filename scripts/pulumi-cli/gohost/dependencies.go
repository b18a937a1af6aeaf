package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
)

// GetProgramDependencies lists the program's modules for `pulumi about`, as the official host
// does: the requirements of its go.mod, direct ones only unless --transitive, with no version
// for a module that a replace directive points elsewhere.
func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	gomod, err := loadGomod(ctx, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("load go.mod: %w", err)
	}
	replaced := map[string]bool{}
	for _, r := range gomod.Replace {
		replaced[strings.TrimRight(r.Old.Path, "/")] = true
	}
	deps := []*pulumirpc.DependencyInfo{}
	for _, d := range gomod.Require {
		if d.Indirect && !req.GetTransitiveDependencies() {
			continue
		}
		version := d.Mod.Version
		if replaced[strings.TrimRight(d.Mod.Path, "/")] {
			version = ""
		}
		deps = append(deps, &pulumirpc.DependencyInfo{Name: d.Mod.Path, Version: version})
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// loadGomod reads the go.mod of the module the program is in (it may sit in a subdirectory).
func loadGomod(ctx context.Context, programDir string) (*modfile.File, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return nil, errors.New("could not find go on the $PATH")
	}
	cmd := exec.CommandContext(ctx, gobin, "list", "-m", "-f", "{{.GoMod}}")
	// Only the module of this directory: a workspace would list all of its modules.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Dir = programDir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m: %w", err)
	}
	path := string(bytes.TrimSpace(out))
	if path == "" {
		return nil, fmt.Errorf("no go.mod file found: %v", programDir)
	}
	body, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return modfile.Parse(path, body, nil)
}
