package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// notBlank rejects "" and names made only of white space, which the console shows as nothing.
func notBlank() validator.String { return notBlankValidator{} }

type notBlankValidator struct{}

func (notBlankValidator) Description(context.Context) string {
	return "value must not be empty or only white space"
}
func (v notBlankValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (notBlankValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if strings.TrimSpace(req.ConfigValue.ValueString()) == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Empty value", fmt.Sprintf("%s must not be empty or only white space.", req.Path))
	}
}
