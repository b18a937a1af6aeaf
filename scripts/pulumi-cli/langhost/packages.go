package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GetRequiredPackages names the resource plugins the program's packages need, as the official
// host does: every package under the program's node_modules whose package.json says
// `"pulumi": {"resource": true, "name": ...}`, at its `pulumi.version` or else the package's own
// version. `pulumi about` lists them, and the engine versions default providers by them. What
// cannot be read is logged and skipped, as upstream does, so a broken package never stops a run.
func (h *host) GetRequiredPackages(
	_ context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	found := &pluginPackages{visited: map[string]bool{}}
	found.modules(filepath.Join(req.GetInfo().GetProgramDirectory(), "node_modules"))
	if err := errors.Join(found.errs...); err != nil {
		logging.V(3).Infof("one or more errors while discovering plugins: %s", err)
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: found.packages}, nil
}

// pluginPackages walks node_modules folders as Node.js resolves them: each package (a scope's
// packages too) and the node_modules nested in it, links followed (pnpm's layout, a package
// linked to a checkout), each real folder once.
type pluginPackages struct {
	visited  map[string]bool
	packages []*pulumirpc.PackageDependency
	errs     []error
}

// once is dir's real path, unless it was seen already or is no folder.
func (w *pluginPackages) once(dir string) (string, bool) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", false // no such folder: a package without nested node_modules
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() || w.visited[real] {
		return "", false
	}
	w.visited[real] = true
	return real, true
}

func (w *pluginPackages) modules(dir string) {
	real, ok := w.once(dir)
	if !ok {
		return
	}
	entries, err := os.ReadDir(real)
	if err != nil {
		w.errs = append(w.errs, err)
		return
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case strings.HasPrefix(name, "."): // .bin, .package-lock.json, pnpm's store (reached by its links)
		case strings.HasPrefix(name, "@"):
			w.scope(filepath.Join(real, name))
		default:
			w.pkg(filepath.Join(real, name))
		}
	}
}

func (w *pluginPackages) scope(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.errs = append(w.errs, err)
		return
	}
	for _, e := range entries {
		w.pkg(filepath.Join(dir, e.Name()))
	}
}

func (w *pluginPackages) pkg(dir string) {
	real, ok := w.once(dir)
	if !ok {
		return
	}
	if dep, err := pluginOf(filepath.Join(real, "package.json")); err != nil {
		w.errs = append(w.errs, err)
	} else if dep != nil {
		w.packages = append(w.packages, dep)
	}
	w.modules(filepath.Join(real, "node_modules"))
}

// pluginOf is the resource plugin a package.json names, or nil; the official host's rules: the
// name from `pulumi.name` (an @pulumi package's may be left out), the version from
// `pulumi.version` or the package's, with a leading v.
func pluginOf(file string) (*pulumirpc.PackageDependency, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var info struct {
		Name    string                  `json:"name"`
		Version string                  `json:"version"`
		Pulumi  plugin.PulumiPluginJSON `json:"pulumi"`
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if !info.Pulumi.Resource {
		return nil, nil
	}
	name, version := info.Pulumi.Name, info.Pulumi.Version
	if name == "" && strings.HasPrefix(info.Name, "@pulumi/") {
		name = strings.TrimPrefix(info.Name, "@pulumi/")
	}
	if version == "" {
		version = info.Version
	}
	if name == "" || version == "" {
		return nil, fmt.Errorf("%s: a package with a resource plugin needs \"pulumi.name\" and a version", file)
	}
	return &pulumirpc.PackageDependency{
		Kind: "resource", Name: name, Version: "v" + strings.TrimPrefix(version, "v"), Server: info.Pulumi.Server,
	}, nil
}
