# Every admin of the organization. Roles compare case-insensitively: "admin" finds the console's
# "Admin", and "read only" its "Read Only".
data "featureconsole_users" "admins" {
  role = "admin"
}

output "admin_emails" {
  value = [for u in data.featureconsole_users.admins.users : u.email]
}
