// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"encoding/json"
)

// StringList is a list of strings the service may answer as one bare string when it holds one (a
// gate's or a config's targetApps, as the live service answers them); null and "" are no strings.
type StringList []string

func (l *StringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*l = nil
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = nil
		if s != "" {
			*l = StringList{s}
		}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*l = list
	return nil
}
