// Command exprtable evaluates a table of expressions with expr-lang (the Debian package
// golang-github-antonmedv-expr-dev) in a fixed, CCM-like environment, and writes what expr-lang
// said about each one (value and Go type, or the error) as JSON. plait's TypeScript tests compare
// its own evaluator against that table (test/manifest/expr/table.json).
//
// Usage: exprtable CASES_FILE OUTPUT_JSON (see README.md for the offline build).
//
// The environment mirrors CCM's templates.Env: the variables Facts, Data and Environ, the
// function lookup(path[, default]) with GJSON-style paths over {facts, data, environ}, readFile /
// file / template over a fixed in-memory set of files, and a fixed clock for now(). The packaged
// expr-lang predates the built-ins CCM's expr-lang has (upper, split, toJSON, ...), so they are
// provided here as environment functions with the semantics of current expr-lang.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/antonmedv/expr"
	"github.com/antonmedv/expr/file"
)

// The fixed inputs of every case.

var clock = time.Date(2024, time.May, 6, 7, 8, 9, 0, time.UTC)

func facts() map[string]interface{} {
	return map[string]interface{}{
		"host": map[string]interface{}{
			"info": map[string]interface{}{
				"hostname":       "web01.example.net",
				"os":             "linux",
				"platform":       "debian",
				"platformFamily": "debian",
				"kernelVersion":  "6.1.0-18-amd64",
			},
		},
		"hostname": "web01",
		"env":      "prod",
		"role":     "web",
		"cpus":     8,
		"load":     0.75,
		"flag":     true,
		"nothing":  nil,
		"empty":    "",
		"tags":     []interface{}{"a", "b", "c"},
		"networking": map[string]interface{}{
			"fqdn": "web01.example.net",
			"interfaces": []interface{}{
				map[string]interface{}{"name": "eth0", "ip": "10.0.0.5", "mtu": 1500},
				map[string]interface{}{"name": "lo", "ip": "127.0.0.1", "mtu": 65536},
			},
		},
		"dotted.key": "dotted value",
		"memory":     map[string]interface{}{"total": 16384, "free_ratio": 0.25},
	}
}

func data() map[string]interface{} {
	return map[string]interface{}{
		"package_name": "httpd",
		"service_name": "httpd",
		"port":         8080,
		"ratio":        1.5,
		"negative":     -3,
		"enabled":      true,
		"disabled":     false,
		"list":         []interface{}{1, 2, 3},
		"floats":       []interface{}{0.5, 1.25},
		"names":        []interface{}{"x", "y", "z"},
		"mixed":        []interface{}{1, "two", 3.5, true, nil},
		"nested":       map[string]interface{}{"a": map[string]interface{}{"b": map[string]interface{}{"c": "deep"}}},
		"users": []interface{}{
			map[string]interface{}{"name": "alice", "uid": 1000},
			map[string]interface{}{"name": "bob", "uid": 1001},
		},
		"single":     map[string]interface{}{"only": "one"},
		"empty_list": []interface{}{},
		"empty_map":  map[string]interface{}{},
		"nil_value":  nil,
		"json_text":  `{"a":[1,2.5,"x"],"b":null}`,
		"csv":        "a,b,,c",
		"spaced":     "  padded\t",
		"greeting":   "Hello, World",
		"unicode":    "héllo wörld",
		"number_str": "42",
		"float_str":  "2.5",
		"zero":       0,
	}
}

func environ() map[string]string {
	return map[string]string{
		"HOME":  "/root",
		"PATH":  "/usr/bin:/bin",
		"LANG":  "C.UTF-8",
		"EMPTY": "",
	}
}

// files is what readFile, file and template can read, relative to the working directory.
var files = map[string]string{
	"files/motd.txt":       "Welcome to web01\n",
	"templates/app.templ":  "name={{ Data.package_name }} port={{ Data.port }}",
	"templates/port.templ": "{{ Data.port + 1 }}",
	"templates/bad.templ":  "{{ nosuch }}",
	"templates/x.jet":      "[[ data.port ]]",
}

// CCM's lookup: a GJSON path over the JSON of {facts, data, environ}.

type env struct {
	facts   map[string]interface{}
	data    map[string]interface{}
	environ map[string]string
	doc     interface{} // the JSON document lookup reads, numbers kept as json.Number
}

func newEnv() *env {
	e := &env{facts: facts(), data: data(), environ: environ()}
	raw, err := json.Marshal(map[string]interface{}{"facts": e.facts, "data": e.data, "environ": e.environ})
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&e.doc); err != nil {
		panic(err)
	}
	return e
}

// gjsonSplit splits a path at unescaped dots; a backslash escapes the next character, and a
// segment with an escape in it is matched literally (no wildcards, no #).
func gjsonSplit(p string) ([]string, []bool) {
	var parts []string
	var escaped []bool
	var cur strings.Builder
	esc := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			i++
			cur.WriteByte(p[i])
			esc = true
			continue
		}
		if c == '.' {
			parts = append(parts, cur.String())
			escaped = append(escaped, esc)
			cur.Reset()
			esc = false
			continue
		}
		cur.WriteByte(c)
	}
	return append(parts, cur.String()), append(escaped, esc)
}

// wildcard matches a key against a pattern with * (any run) and ? (any one character).
func wildcard(pattern, key string) bool {
	if pattern == "" {
		return key == ""
	}
	switch pattern[0] {
	case '*':
		for i := 0; i <= len(key); i++ {
			if wildcard(pattern[1:], key[i:]) {
				return true
			}
		}
		return false
	case '?':
		return key != "" && wildcard(pattern[1:], key[1:])
	default:
		return key != "" && key[0] == pattern[0] && wildcard(pattern[1:], key[1:])
	}
}

// gjsonGet walks a decoded document; ok is false when the path does not exist.
func gjsonGet(doc interface{}, parts []string, escaped []bool) (interface{}, bool) {
	if len(parts) == 0 {
		return doc, true
	}
	seg := parts[0]
	switch v := doc.(type) {
	case []interface{}:
		if seg == "#" && !escaped[0] {
			if len(parts) == 1 {
				return json.Number(strconv.Itoa(len(v))), true
			}
			out := []interface{}{}
			for _, item := range v {
				if r, ok := gjsonGet(item, parts[1:], escaped[1:]); ok {
					out = append(out, r)
				}
			}
			return out, true
		}
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 || i >= len(v) {
			return nil, false
		}
		return gjsonGet(v[i], parts[1:], escaped[1:])
	case map[string]interface{}:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys) // the JSON document lists keys in this order
		for _, k := range keys {
			if (escaped[0] && k == seg) || (!escaped[0] && wildcard(seg, k)) {
				return gjsonGet(v[k], parts[1:], escaped[1:])
			}
		}
		return nil, false
	}
	return nil, false
}

// gjsonValue turns a found value into what gjson's Result.Value() gives: numbers inside arrays
// and maps become float64.
func gjsonValue(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, item := range x {
			out[i] = gjsonValue(item)
		}
		return out
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, item := range x {
			out[k] = gjsonValue(item)
		}
		return out
	}
	return v
}

func (e *env) lookupIn(doc interface{}, missing func(key string, dflt interface{}) interface{}) func(args ...interface{}) interface{} {
	return func(args ...interface{}) interface{} {
		// CCM checks the count with `len(params) == 0 && len(params) > 2`, which never holds: no
		// argument fails on params[0] and arguments past the second are ignored.
		if len(args) == 0 {
			panic("runtime error: index out of range [0] with length 0")
		}
		key, ok := args[0].(string)
		if !ok {
			panic("lookup requires a string argument")
		}
		var dflt interface{}
		if len(args) == 2 {
			dflt = args[1]
		}
		parts, escaped := gjsonSplit(key)
		found, ok := gjsonGet(doc, parts, escaped)
		if !ok {
			return missing(key, dflt)
		}
		if n, isNum := found.(json.Number); isNum {
			if strings.Contains(string(n), ".") {
				f, _ := n.Float64()
				return f
			}
			i, err := n.Int64()
			if err != nil {
				f, _ := n.Float64()
				return int64(f)
			}
			return i
		}
		return gjsonValue(found)
	}
}

// readFile, file and template, as CCM defines them, over the fixed files.

func readFile(args ...interface{}) interface{} {
	if len(args) == 0 {
		panic("readFile requires a string argument")
	}
	name, ok := args[0].(string)
	if !ok {
		panic("readFile requires a string argument")
	}
	if path.IsAbs(name) {
		panic("readFile can only read files in the working directory")
	}
	body, found := files[path.Clean(name)]
	if !found {
		panic(fmt.Sprintf("failed to read file %q: no such file or directory", name))
	}
	return body
}

var holes = regexp.MustCompile(`{{\s*(.*?)\s*}}`)

// resolveTyped is CCM's ResolveTemplateTyped: one hole keeps its type, several are printed.
func resolveTyped(tmpl string, vars map[string]interface{}) interface{} {
	if tmpl == "" {
		return ""
	}
	trimmed := strings.TrimSpace(tmpl)
	matches := holes.FindAllStringSubmatchIndex(tmpl, -1)
	if matches == nil {
		return tmpl
	}
	if len(matches) == 1 && strings.HasPrefix(trimmed, "{{") && strings.HasSuffix(trimmed, "}}") {
		return evalOrPanic(tmpl[matches[0][2]:matches[0][3]], vars)
	}
	var out strings.Builder
	last := 0
	for _, m := range matches {
		out.WriteString(tmpl[last:m[0]])
		out.WriteString(fmt.Sprint(evalOrPanic(tmpl[m[2]:m[3]], vars)))
		last = m[1]
	}
	out.WriteString(tmpl[last:])
	return out.String()
}

func evalOrPanic(src string, vars map[string]interface{}) interface{} {
	program, err := expr.Compile(src, expr.Env(vars))
	if err != nil {
		panic(fmt.Sprintf("expr compile error for '%s': %v", src, err))
	}
	out, err := expr.Run(program, vars)
	if err != nil {
		panic(err.Error())
	}
	return out
}

// The built-ins of current expr-lang that the packaged version lacks.

func str(fn string, v interface{}) string {
	s, ok := v.(string)
	if !ok {
		panic(fmt.Sprintf("invalid argument for %s (type %T)", fn, v))
	}
	return s
}

func arity(fn string, args []interface{}, min, max int) {
	if len(args) < min || len(args) > max {
		if min == max {
			panic(fmt.Sprintf("invalid number of arguments for %s (expected %d, got %d)", fn, min, len(args)))
		}
		panic(fmt.Sprintf("invalid number of arguments for %s (expected %d or %d, got %d)", fn, min, max, len(args)))
	}
}

func toInt(fn string, v interface{}) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	}
	panic(fmt.Sprintf("invalid argument for %s (type %T)", fn, v))
}

func builtins(vars map[string]interface{}) {
	vars["upper"] = func(args ...interface{}) interface{} {
		arity("upper", args, 1, 1)
		return strings.ToUpper(str("upper", args[0]))
	}
	vars["lower"] = func(args ...interface{}) interface{} {
		arity("lower", args, 1, 1)
		return strings.ToLower(str("lower", args[0]))
	}
	vars["trim"] = func(args ...interface{}) interface{} {
		arity("trim", args, 1, 2)
		if len(args) == 1 {
			return strings.TrimSpace(str("trim", args[0]))
		}
		return strings.Trim(str("trim", args[0]), str("trim", args[1]))
	}
	vars["split"] = func(args ...interface{}) interface{} {
		arity("split", args, 2, 3)
		if len(args) == 2 {
			return strings.Split(str("split", args[0]), str("split", args[1]))
		}
		return strings.SplitN(str("split", args[0]), str("split", args[1]), toInt("split", args[2]))
	}
	vars["join"] = func(args ...interface{}) interface{} {
		arity("join", args, 1, 2)
		glue := ""
		if len(args) == 2 {
			glue = str("join", args[1])
		}
		switch list := args[0].(type) {
		case []string:
			return strings.Join(list, glue)
		case []interface{}:
			parts := make([]string, len(list))
			for i, item := range list {
				parts[i] = str("join", item)
			}
			return strings.Join(parts, glue)
		}
		panic(fmt.Sprintf("invalid argument for join (type %T)", args[0]))
	}
	vars["replace"] = func(args ...interface{}) interface{} {
		arity("replace", args, 3, 4)
		if len(args) == 4 {
			return strings.Replace(str("replace", args[0]), str("replace", args[1]), str("replace", args[2]), toInt("replace", args[3]))
		}
		return strings.ReplaceAll(str("replace", args[0]), str("replace", args[1]), str("replace", args[2]))
	}
	vars["keys"] = func(args ...interface{}) interface{} {
		arity("keys", args, 1, 1)
		v := reflect.ValueOf(args[0])
		if v.Kind() != reflect.Map {
			panic(fmt.Sprintf("cannot get keys from %s", v.Kind()))
		}
		out := []interface{}{}
		for _, k := range v.MapKeys() {
			out = append(out, k.Interface())
		}
		// Go leaves the order unspecified; the table sorts so that it is reproducible.
		sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
		return out
	}
	vars["values"] = func(args ...interface{}) interface{} {
		arity("values", args, 1, 1)
		v := reflect.ValueOf(args[0])
		if v.Kind() != reflect.Map {
			panic(fmt.Sprintf("cannot get values from %s", v.Kind()))
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
		out := []interface{}{}
		for _, k := range keys {
			out = append(out, v.MapIndex(k).Interface())
		}
		return out
	}
	vars["toJSON"] = func(args ...interface{}) interface{} {
		arity("toJSON", args, 1, 1)
		b, err := json.MarshalIndent(args[0], "", "  ")
		if err != nil {
			panic(err.Error())
		}
		return string(b)
	}
	vars["fromJSON"] = func(args ...interface{}) interface{} {
		arity("fromJSON", args, 1, 1)
		var v interface{}
		if err := json.Unmarshal([]byte(str("fromJSON", args[0])), &v); err != nil {
			panic(err.Error())
		}
		return v
	}
	vars["int"] = func(args ...interface{}) interface{} {
		arity("int", args, 1, 1)
		switch x := args[0].(type) {
		case int:
			return x
		case int64:
			return int(x)
		case float64:
			return int(x)
		case string:
			i, err := strconv.Atoi(x)
			if err != nil {
				panic(fmt.Sprintf("invalid operation: int(%s)", x))
			}
			return i
		}
		panic(fmt.Sprintf("invalid operation: int(%T)", args[0]))
	}
	vars["float"] = func(args ...interface{}) interface{} {
		arity("float", args, 1, 1)
		switch x := args[0].(type) {
		case int:
			return float64(x)
		case int64:
			return float64(x)
		case float64:
			return x
		case string:
			f, err := strconv.ParseFloat(x, 64)
			if err != nil {
				panic(fmt.Sprintf("invalid operation: float(%s)", x))
			}
			return f
		}
		panic(fmt.Sprintf("invalid operation: float(%T)", args[0]))
	}
	vars["string"] = func(args ...interface{}) interface{} {
		arity("string", args, 1, 1)
		return fmt.Sprintf("%v", args[0])
	}
	vars["now"] = func(args ...interface{}) interface{} {
		arity("now", args, 0, 0)
		return clock
	}
}

// vars builds the environment of one case: the full one of manifests, or the restricted one of
// hierarchy entries (only facts and a lookup whose missing keys are "").
func vars(e *env, hiera bool) map[string]interface{} {
	if hiera {
		doc := map[string]interface{}{"facts": e.doc.(map[string]interface{})["facts"]}
		v := map[string]interface{}{"facts": e.facts}
		v["lookup"] = e.lookupIn(doc, func(_ string, dflt interface{}) interface{} {
			if dflt == nil {
				return ""
			}
			return dflt
		})
		builtins(v)
		return v
	}
	v := map[string]interface{}{"Facts": e.facts, "Data": e.data, "Environ": e.environ}
	v["lookup"] = e.lookupIn(e.doc, func(key string, dflt interface{}) interface{} {
		if dflt == nil {
			panic(fmt.Sprintf("missing key '%s' in environment", key))
		}
		return dflt
	})
	v["readFile"] = readFile
	v["file"] = readFile
	v["template"] = func(args ...interface{}) interface{} {
		if len(args) == 0 {
			panic("template requires a string argument")
		}
		body, ok := args[0].(string)
		if !ok {
			panic("template requires a string argument")
		}
		switch path.Ext(body) {
		case ".templ":
			body = readFile(body).(string)
		case ".jet":
			panic("jet templates are not supported by this table")
		}
		return resolveTyped(body, v)
	}
	builtins(v)
	return v
}

// The output: each value with its type, recursively, so that int and float stay apart.

func encode(v interface{}) interface{} {
	if v == nil {
		return map[string]interface{}{"nil": nil}
	}
	switch x := v.(type) {
	case bool:
		return map[string]interface{}{"bool": x}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return map[string]interface{}{"int": fmt.Sprint(x)}
	case float32:
		return encodeFloat(float64(x))
	case float64:
		return encodeFloat(x)
	case string:
		return map[string]interface{}{"string": x}
	case time.Time:
		return map[string]interface{}{"time": x.UTC().Format(time.RFC3339Nano)}
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := []interface{}{}
		for i := 0; i < rv.Len(); i++ {
			out = append(out, encode(rv.Index(i).Interface()))
		}
		return map[string]interface{}{"array": out}
	case reflect.Map:
		out := map[string]interface{}{}
		for _, k := range rv.MapKeys() {
			out[fmt.Sprint(k.Interface())] = encode(rv.MapIndex(k).Interface())
		}
		return map[string]interface{}{"map": out}
	}
	return map[string]interface{}{"other": fmt.Sprintf("%T", v)}
}

func encodeFloat(f float64) interface{} {
	switch {
	case math.IsNaN(f):
		return map[string]interface{}{"float": "NaN"}
	case math.IsInf(f, 1):
		return map[string]interface{}{"float": "+Inf"}
	case math.IsInf(f, -1):
		return map[string]interface{}{"float": "-Inf"}
	}
	return map[string]interface{}{"float": f}
}

type outcome struct {
	Group  string      `json:"group"`
	Mode   string      `json:"mode"`
	Expr   string      `json:"expr"`
	GoType string      `json:"goType,omitempty"`
	Result interface{} `json:"result,omitempty"`
	Error  *failure    `json:"error,omitempty"`
}

type failure struct {
	Message string `json:"message"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

func run(e *env, group, src string, hiera bool) (o outcome) {
	o = outcome{Group: group, Mode: "full", Expr: src}
	if hiera {
		o.Mode = "hiera"
	}
	fail := func(err error) outcome {
		f := &failure{Message: err.Error()}
		if fe, ok := err.(*file.Error); ok {
			f.Message, f.Line, f.Column = fe.Message, fe.Line, fe.Column
		}
		o.Error = f
		return o
	}
	defer func() {
		// The packaged expr-lang can panic outside its own recovery (its optimizer does, on
		// 3..1): that is an error too.
		if r := recover(); r != nil {
			o = fail(fmt.Errorf("%v", r))
		}
	}()
	v := vars(e, hiera)
	program, err := expr.Compile(src, expr.Env(v))
	if err != nil {
		return fail(err)
	}
	out, err := expr.Run(program, v)
	if err != nil {
		return fail(err)
	}
	o.GoType = fmt.Sprintf("%T", out)
	o.Result = encode(out)
	return o
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: exprtable CASES_FILE OUTPUT_JSON")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e := newEnv()
	group := ""
	cases := []outcome{}
	for _, line := range strings.Split(string(raw), "\n") {
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "## "):
			group = strings.TrimPrefix(line, "## ")
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "@hiera "):
			cases = append(cases, run(e, group, strings.TrimPrefix(line, "@hiera "), true))
		default:
			cases = append(cases, run(e, group, line, false))
		}
	}
	table := map[string]interface{}{
		"generator": "tools/exprtable with github.com/antonmedv/expr " + exprVersion(),
		"env": map[string]interface{}{
			"facts":   e.facts,
			"data":    e.data,
			"environ": e.environ,
			"files":   files,
			"now":     clock.Format(time.RFC3339Nano),
		},
		"cases": cases,
	}
	out, err := json.MarshalIndent(table, "", "  ")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[2], append(out, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d cases written to %s\n", len(cases), os.Args[2])
}

// exprVersion names the packaged expr-lang version (Debian's golang-github-antonmedv-expr-dev).
func exprVersion() string {
	return "v1.8.9"
}
