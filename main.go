// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/gcfloor"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/provider"
)

// version is set by the release build (goreleaser ldflags).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	quietSDKLogsUnlessAsked()
	gcfloor.Start()

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	// The framework's server, wrapped so that the events data source is read below it (provider.NewServer).
	newServer := provider.NewServer(version)
	err := tf6server.Serve("registry.terraform.io/featureconsole/featureconsole", func() tfprotov6.ProviderServer {
		s, err := newServer()
		if err != nil {
			log.Fatal(err.Error())
		}
		return s
	}, opts...)
	if err != nil {
		log.Fatal(err.Error())
	}
}

// quietSDKLogsUnlessAsked switches off the plugin SDK's own TRACE logs when the user asked for no
// logs at all. The SDK writes them whatever Terraform will keep, and Terraform throws them away
// unless TF_LOG is set: a quarter of the provider's CPU in a large plan was spent formatting them.
func quietSDKLogsUnlessAsked() {
	for _, v := range []string{"TF_LOG", "TF_LOG_PROVIDER", "TF_ACC_LOG_PATH", "TF_LOG_PATH_MASK"} {
		if os.Getenv(v) != "" {
			return
		}
	}
	for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_SDK_PROTO"} {
		if os.Getenv(v) == "" {
			_ = os.Setenv(v, "OFF")
		}
	}
}
