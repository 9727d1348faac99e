# Every admin of the organization.
data "featureconsole_users" "admins" {
  role = "admin"
}

output "admin_emails" {
  value = [for u in data.featureconsole_users.admins.users : u.email]
}
