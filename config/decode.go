package config

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/nearest"
)

// The file is decoded in two steps: toml into a map (which finds syntax
// errors, with their place), then the map into Config by decoder, which
// knows each key's path, so that an unknown key or a value of the wrong
// type is reported at its own line: the toml package places neither
// reliably (see scan.go).

type decoder struct {
	origin *origin
	errs   []error
}

func reflectValue(c *Config) reflect.Value { return reflect.ValueOf(c).Elem() }

// errorf records a mistake at path, or at the nearest enclosing table or
// element whose place is known.
func (d *decoder) errorf(path []string, format string, args ...any) {
	d.errs = append(d.errs, d.origin.errorAt(path, fmt.Sprintf(format, args...)))
}

// errorAt is an *Error for the key at path.
func (o *origin) errorAt(path []string, msg string) *Error {
	if o == nil {
		return &Error{Msg: msg}
	}
	e := &Error{File: o.file, Msg: msg}
	for n := len(path); n > 0; n-- {
		if p, ok := o.pos[pathKey(path[:n])]; ok {
			e.Line, e.Col = p.line, p.col
			break
		}
	}
	return e
}

// has reports whether the file sets the key at path.
func (o *origin) has(path []string) bool {
	if o == nil {
		return false
	}
	_, ok := o.pos[pathKey(path)]
	return ok
}

// fieldsOf maps a struct type's toml keys to its fields' indexes; the keys
// of an embedded struct are the outer struct's.
func fieldsOf(t reflect.Type) map[string][]int {
	m := map[string][]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for k, idx := range fieldsOf(f.Type) {
				m[k] = append([]int{i}, idx...)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("toml"), ","); name != "" && name != "-" {
			m[name] = []int{i}
		}
	}
	return m
}

// keysOf lists a struct type's toml keys, sorted.
func keysOf(t reflect.Type) []string {
	var keys []string
	for k := range fieldsOf(t) {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// table decodes m into the struct rv; path is the table's path and label
// how a message names it ("[[group.source]]"; "" for the top level).
func (d *decoder) table(m map[string]any, rv reflect.Value, path []string, label string) {
	fields := fieldsOf(rv.Type())
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// In the file's order, so the messages are too.
	slices.SortFunc(keys, func(a, b string) int {
		pa, pb := d.place(path, a), d.place(path, b)
		if pa.line != pb.line {
			return pa.line - pb.line
		}
		if pa.col != pb.col {
			return pa.col - pb.col
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys {
		kp := append(slices.Clip(path), k)
		idx, ok := fields[k]
		if !ok {
			where := ""
			if label != "" {
				where = " in " + label
			}
			msg := fmt.Sprintf("unknown key %s%s", strconv.Quote(k), where)
			if s := nearest.Word(k, keysOf(rv.Type())); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", strconv.Quote(s))
			}
			d.errorf(kp, "%s", msg)
			continue
		}
		d.value(m[k], rv.FieldByIndex(idx), kp, childLabel(label, k))
	}
}

func (d *decoder) place(path []string, k string) pos {
	if d.origin == nil {
		return pos{}
	}
	return d.origin.pos[pathKey(append(slices.Clip(path), k))]
}

// childLabel names the table key k of the table named label.
func childLabel(label, k string) string {
	label = strings.Trim(label, "[]")
	if label == "" {
		return k
	}
	return label + "." + k
}

// value decodes v into rv, the field of the key at path; label names the
// key as a table ("group.source").
func (d *decoder) value(v any, rv reflect.Value, path []string, label string) {
	key := keyName(path)
	switch rv.Kind() {
	case reflect.String:
		if s, ok := v.(string); ok {
			rv.SetString(s)
			return
		}
	case reflect.Bool:
		if b, ok := v.(bool); ok {
			rv.SetBool(b)
			return
		}
	case reflect.Int, reflect.Int64:
		if n, ok := v.(int64); ok {
			if rv.Kind() == reflect.Int && (n > math.MaxInt || n < math.MinInt) {
				d.errorf(path, "%s: %d is too large", key, n)
				return
			}
			rv.SetInt(n)
			return
		}
	case reflect.Float64:
		switch n := v.(type) {
		case float64:
			rv.SetFloat(n)
			return
		case int64:
			rv.SetFloat(float64(n))
			return
		}
	case reflect.Pointer:
		// A key whose absence differs from its zero (rate = 0 is no
		// limit; no rate is the default).
		p := reflect.New(rv.Type().Elem())
		d.value(v, p.Elem(), path, label)
		rv.Set(p)
		return
	case reflect.Struct:
		if m, ok := v.(map[string]any); ok {
			d.table(m, rv, path, "["+label+"]")
			return
		}
	case reflect.Slice:
		elems, ok := arrayOf(v)
		if !ok {
			break
		}
		last := path[len(path)-1]
		s := reflect.MakeSlice(rv.Type(), len(elems), len(elems))
		for i, e := range elems {
			ep := append(slices.Clone(path[:len(path)-1]), last+"["+strconv.Itoa(i)+"]")
			switch rv.Type().Elem().Kind() {
			case reflect.String:
				str, ok := e.(string)
				if !ok {
					d.errorf(ep, "%s must be an array of strings; element %d is %s", key, i+1, typeOf(e))
					continue
				}
				s.Index(i).SetString(str)
			case reflect.Struct:
				m, ok := e.(map[string]any)
				if !ok {
					d.errorf(ep, "%s must be tables ([[%s]]); element %d is %s", key, label, i+1, typeOf(e))
					continue
				}
				d.table(m, s.Index(i), ep, "[["+label+"]]")
			}
		}
		rv.Set(s)
		return
	}
	d.errorf(path, "%s must be %s, not %s", key, wantOf(rv.Type(), label), typeOf(v))
}

// arrayOf returns the elements of a TOML array or array of tables.
func arrayOf(v any) ([]any, bool) {
	switch a := v.(type) {
	case []any:
		return a, true
	case []map[string]any:
		elems := make([]any, len(a))
		for i, m := range a {
			elems[i] = m
		}
		return elems, true
	}
	return nil, false
}

// keyName is the key at path as a message names it: its last part.
func keyName(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return path[len(path)-1]
}

// wantOf names what a key of type t holds.
func wantOf(t reflect.Type, label string) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return wantOf(t.Elem(), label)
	case reflect.Struct:
		return "a table ([" + label + "])"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return "an array of tables ([[" + label + "]])"
		}
		return "an array of strings"
	}
	return t.String()
}

// typeOf names the TOML type of a decoded value.
func typeOf(v any) string {
	switch v := v.(type) {
	case string:
		return "a string (" + strconv.Quote(v) + ")"
	case int64:
		return "an integer (" + strconv.FormatInt(v, 10) + ")"
	case float64:
		return "a float (" + strconv.FormatFloat(v, 'g', -1, 64) + ")"
	case bool:
		return "a boolean (" + strconv.FormatBool(v) + ")"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date-time"
	}
	return "a date or time"
}
