package main

import (
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	"pulumi-cims/pulumi-cli/hostmain"
)

// nodeOptions are the project's runtime options (Pulumi.yaml `runtime.options`), checked as the
// official Node.js host checks them: an option of the wrong type, or a package manager it does
// not know, is an error naming the option, never read as if it were absent.
type nodeOptions struct {
	typescript     bool
	tsconfig       string
	nodeargs       string
	packagemanager npm.PackageManagerType
}

func parseOptions(options map[string]any) (nodeOptions, error) {
	opts := nodeOptions{typescript: true, packagemanager: npm.AutoPackageManager}
	if v, ok := options["typescript"]; ok {
		ts, isBool := v.(bool)
		if !isBool {
			return opts, errors.New("typescript option must be a boolean")
		}
		opts.typescript = ts
	}
	var err error
	if opts.tsconfig, err = hostmain.StringOption(options, "tsconfig"); err != nil {
		return opts, err
	}
	if opts.nodeargs, err = hostmain.StringOption(options, "nodeargs"); err != nil {
		return opts, err
	}
	pm, err := hostmain.StringOption(options, "packagemanager")
	if err != nil {
		return opts, err
	}
	switch pm {
	case "", "auto":
	case "npm", "yarn", "pnpm", "bun":
		opts.packagemanager = npm.PackageManagerType(pm)
	default:
		return opts, fmt.Errorf("packagemanager option must be one of auto, npm, yarn, pnpm or bun, got %q", pm)
	}
	return opts, nil
}
