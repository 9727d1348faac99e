package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/provider"
)

// version is set by the release build (goreleaser ldflags).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	quietSDKLogsUnlessAsked()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/featureconsole/featureconsole",
		Debug:   debug,
	})
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
