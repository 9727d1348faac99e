// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
)

// The habits of dynamic configs on the service's 2025 wire (the service's 2025 documents), and a
// gate's one target app as a bare string: answers as the documents show them, the same values
// written otherwise. Every function here runs with s.mu held.

// configHabits are the switches of the habits below, by field name (see Habits.switches).
func (h *Habits) configHabits() map[string]*bool {
	return map[string]*bool{
		"BareTargetApps": &h.BareTargetApps, "JSON5Copies": &h.JSON5Copies, "SchemaReserialised": &h.SchemaReserialised,
	}
}

// reshapeConfigs gives the configs of an answer (one config, or a list) the wire habits switched on,
// and the gates of an answer their one target app as a bare string (BareTargetApps).
func (h Habits) reshapeConfigs(r *http.Request, data any) {
	p := strings.TrimPrefix(r.URL.Path, basePath)
	gates := p == "/gates" || strings.HasPrefix(p, "/gates/")
	if !gates && !strings.HasPrefix(p, "/dynamic_configs") {
		return
	}
	objects, ok := data.([]any)
	if !ok {
		objects = []any{data}
	}
	for _, o := range objects {
		if om, ok := o.(map[string]any); ok && gates {
			h.bareTargetApps(om)
		} else if ok {
			h.reshapeConfig(om)
		}
	}
}

// bareTargetApps answers one target app as a bare string (BareTargetApps).
func (h Habits) bareTargetApps(o map[string]any) {
	if apps, _ := o["targetApps"].([]any); h.BareTargetApps && len(apps) == 1 {
		o["targetApps"] = apps[0]
	}
}

func (h Habits) reshapeConfig(c map[string]any) {
	h.bareTargetApps(c)
	schema, _ := c["schema"].(string)
	if h.SchemaReserialised && schema != "" {
		c["schema"] = string(compactJSON(reorderedJSON([]byte(schema))))
	}
	if !h.JSON5Copies {
		return
	}
	if schema != "" {
		c["schemaJson5"] = json5Text([]byte(schema))
	}
	if dv, ok := c["defaultValue"]; ok {
		c["defaultValueJson5"] = json5Text(marshal(dv))
	}
	rules, _ := c["rules"].([]any)
	for _, r := range rules {
		if rm, ok := r.(map[string]any); ok && rm["returnValue"] != nil {
			rm["returnValueJson5"] = json5Text(marshal(rm["returnValue"]))
		}
	}
}

func compactJSON(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// json5Text writes a JSON object as the console's JSON5 editor keeps it: a comment, unquoted keys,
// single-quoted strings and trailing commas.
func json5Text(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	var b strings.Builder
	b.WriteString("// written in the console\n")
	var write func(any)
	write = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			b.WriteString("{")
			for _, k := range keys {
				b.WriteString(k + ": ")
				write(t[k])
				b.WriteString(",")
			}
			b.WriteString("}")
		case []any:
			b.WriteString("[")
			for _, e := range t {
				write(e)
				b.WriteString(",")
			}
			b.WriteString("]")
		case string:
			b.WriteString("'" + strings.ReplaceAll(t, "'", `\'`) + "'")
		default:
			b.Write(marshal(t))
		}
	}
	write(v)
	return b.String()
}
