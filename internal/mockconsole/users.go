// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import "net/http"

// User of the organization.
type User struct {
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Role      string `json:"role"`
	// Stale marks a member who no longer uses the project: GET /users leaves stale members out
	// unless asked with include_stale_members=true. The service does not say it in the list.
	Stale bool `json:"-"`
}

// Users of the organization: listed only.

// SetUsers replaces the user list.
func (s *Server) SetUsers(u []User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users = append([]User{}, u...)
}

func (s *Server) listUsers(r *http.Request) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	users := s.users
	if r.URL.Query().Get("include_stale_members") != "true" {
		users = make([]User, 0, len(s.users))
		for _, u := range s.users {
			if !u.Stale {
				users = append(users, u)
			}
		}
	}
	return listed(p, "/users", "Users", len(users), func(i int) User { return s.habits.userAsListed(users[i]) })
}
