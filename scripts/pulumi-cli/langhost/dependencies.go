package main

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GetProgramDependencies lists the program's packages for `pulumi about`, as the official host
// does: from the lock file of its package manager (runtime option `packagemanager`, else the
// one whose lock file is there), direct dependencies only unless --transitive.
func (h *host) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	info := req.GetInfo()
	options, err := parseOptions(info.GetOptions().AsMap())
	if err != nil {
		return nil, err
	}
	pkgManager, err := npm.ResolvePackageManager(options.packagemanager, info.GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("failed to determine package manager: %w", err)
	}
	packages, err := pkgManager.ListPackages(ctx, info.GetProgramDirectory(), req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("failed to get node dependencies: %w", err)
	}
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, p := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}
