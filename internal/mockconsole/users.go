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
	return listed(p, "/users", "Users", len(s.users), func(i int) User { return s.habits.userAsListed(s.users[i]) })
}
