// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// createRecovering sends a create again only when the read back shows it never arrived; takes an
// object stored as sent; and says in words an object that differs, naming a 2xx it could not read
// as this apply's own create.
func TestCreateRecovering(t *testing.T) {
	lost := &console.TransportError{Op: "create gate", Object: `"g"`, Attempts: 1, Err: io.EOF}
	garbled := &console.DecodeError{Op: "create gate", Object: `"g"`, Err: errors.New("unexpected end of JSON input")}
	notFound := &console.APIError{Op: "read gate", Object: `"g"`, StatusCode: http.StatusNotFound, Message: "Gate not found"}
	for name, tc := range map[string]struct {
		creates   []error   // what each create answers, in turn (nil: created)
		stored    []*string // what each read back finds, in turn (nil: nothing)
		wantSends int
		wantErr   string
	}{
		"lost on the way, sent again":  {creates: []error{lost, nil}, stored: []*string{nil}, wantSends: 2},
		"lost answer, stored as sent":  {creates: []error{lost}, stored: []*string{strp("sent")}, wantSends: 1},
		"garbled answer, as sent":      {creates: []error{garbled}, stored: []*string{strp("sent")}, wantSends: 1},
		"garbled answer, differs":      {creates: []error{garbled}, stored: []*string{strp("other")}, wantSends: 1, wantErr: "was created by this apply"},
		"lost answer, differs":         {creates: []error{lost}, stored: []*string{strp("other")}, wantSends: 1, wantErr: "was not created by this apply"},
		"never arrives, bounded sends": {creates: []error{lost, lost, lost, lost, lost}, stored: []*string{nil, nil, nil, nil}, wantSends: maxCreateResends + 1, wantErr: "EOF"},
	} {
		t.Run(name, func(t *testing.T) {
			sends, reads := 0, 0
			got, err := createRecovering(context.Background(), gateCreation, "g",
				func(context.Context) (*string, error) {
					e := tc.creates[sends]
					sends++
					if e != nil {
						return nil, e
					}
					return strp("sent"), nil
				},
				func(context.Context, string) (*string, error) {
					s := tc.stored[reads]
					reads++
					if s == nil {
						return nil, notFound
					}
					return s, nil
				},
				func(s *string) bool { return *s == "sent" })
			if sends != tc.wantSends {
				t.Errorf("sent %d creates, want %d", sends, tc.wantSends)
			}
			if tc.wantErr == "" {
				if err != nil || got == nil || *got != "sent" {
					t.Fatalf("want the object, got %v, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("want an error saying %q, got %v", tc.wantErr, err)
			}
		})
	}
}
