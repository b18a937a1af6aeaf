package main

import (
	"context"

	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"pulumi-cims/pulumi-cli/sdkgen"
)

// GeneratePackage serves `pulumi package gen-sdk --language nodejs` with the engine's own
// Node.js generator, passing it what the official host passes (overlays, local
// dependencies, --local).
func (h *host) GeneratePackage(
	_ context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	return sdkgen.Generate(req, func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error) {
		return codegen.GeneratePackage(
			"pulumi-language-nodejs", pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), loader)
	})
}
