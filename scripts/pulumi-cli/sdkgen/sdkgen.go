// Package sdkgen is the part of GeneratePackage (`pulumi package gen-sdk`) that the official
// language hosts share word for word: bind the schema the engine sends, then write what the
// language's generator makes of it under the requested directory. Each of our hosts passes
// only its generator, so `gen-sdk` behaves as it would with the official hosts.
package sdkgen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Generator makes a language's SDK files (relative path to contents) from a bound package.
type Generator func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error)

// Generate answers a GeneratePackageRequest with gen. Schema errors are returned as
// diagnostics, not as an RPC error, so the CLI prints them with their locations.
func Generate(req *pulumirpc.GeneratePackageRequest, gen Generator) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, err
	}
	// References to other packages' types need not resolve: the SDK only names them.
	pkg, diags, err := schema.BindSpec(spec, schema.NewCachedLoader(loader), schema.ValidationOptions{
		AllowDanglingReferences: true,
	})
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
	}

	files, err := gen(pkg, schema.NewCachedLoader(loader))
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		out := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
			return nil, fmt.Errorf("could not create output directory %s: %w", filepath.Dir(name), err)
		}
		if err := os.WriteFile(out, data, 0o600); err != nil {
			return nil, fmt.Errorf("could not write output file %s: %w", name, err)
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: rpcDiagnostics}, nil
}
