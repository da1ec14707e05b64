package match

import "strings"

// splitList splits "a=1,b=2" on commas, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func cutKV(s string) (k, v string, ok bool) {
	k, v, ok = strings.Cut(s, "=")
	return strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v), ok
}
