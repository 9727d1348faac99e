package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

var _ datasource.DataSourceWithConfigure = &usersDataSource{}

func NewUsersDataSource() datasource.DataSource { return &usersDataSource{} }

type usersDataSource struct{ data *providerData }

type usersModel struct {
	Role  types.String `tfsdk:"role"`
	Users types.List   `tfsdk:"users"`
}

var userAttrTypes = map[string]attr.Type{
	"email":      types.StringType,
	"first_name": types.StringType,
	"last_name":  types.StringType,
	"role":       types.StringType,
}

func (d *usersDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_users"
}

func (d *usersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the users of the organization (every page of `GET /users`), optionally only those with one role.",
		Attributes: map[string]schema.Attribute{
			"role": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only users with this role, compared exactly. Roles seen: `admin`, `member`. Omit for every user.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"users": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The users, in the order the service lists them.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"email":      schema.StringAttribute{Computed: true, MarkdownDescription: "E-mail address."},
					"first_name": schema.StringAttribute{Computed: true, MarkdownDescription: "First name."},
					"last_name":  schema.StringAttribute{Computed: true, MarkdownDescription: "Last name; may be empty."},
					"role":       schema.StringAttribute{Computed: true, MarkdownDescription: "Role in the organization, such as `admin` or `member`."},
				}},
			},
		},
	}
}

func (d *usersDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, resp.Diagnostics.AddError)
}

func (d *usersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m usersModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !requireClient(d.data, &resp.Diagnostics) {
		return
	}
	users, err := d.data.client.ListUsers(ctx, console.ListOptions{Concurrency: d.data.readConcurrency})
	if err != nil {
		resp.Diagnostics.AddError("Unable to list users", err.Error())
		return
	}
	m.Users = flattenUsers(users, m.Role.ValueString())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func flattenUsers(users []console.User, role string) types.List {
	objType := types.ObjectType{AttrTypes: userAttrTypes}
	vals := make([]attr.Value, 0, len(users))
	for _, u := range users {
		if role != "" && u.Role != role {
			continue
		}
		vals = append(vals, types.ObjectValueMust(userAttrTypes, map[string]attr.Value{
			"email":      types.StringValue(u.Email),
			"first_name": types.StringValue(u.FirstName),
			"last_name":  types.StringValue(u.LastName),
			"role":       types.StringValue(u.Role),
		}))
	}
	return types.ListValueMust(objType, vals)
}
