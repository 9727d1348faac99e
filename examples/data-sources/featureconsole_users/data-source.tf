# Every admin of the organization. Roles compare case-insensitively: "admin" finds the console's
# "Admin", and "read only" its "Read Only".
data "featureconsole_users" "admins" {
  role = "admin"
}

output "admin_emails" {
  value = [for u in data.featureconsole_users.admins.users : u.email]
}

# Every member, stale ones included: people who no longer use the project, whom the console's
# settings page (and the data source by default) leaves out.
data "featureconsole_users" "everyone" {
  include_stale_members = true
}
