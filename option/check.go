package option

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// leaves calls visit for every key of the struct v (sections walked into, through
// their pointers) with its dotted key, its field and its value.
func leaves(v reflect.Value, prefix string, visit func(key string, f reflect.StructField, fv reflect.Value)) {
	for _, f := range fields(v.Type()) {
		fv := v.FieldByIndex(f.Index)
		if fv.Kind() == reflect.Pointer && fv.Type().Elem().Kind() == reflect.Struct {
			if fv.IsNil() {
				continue
			}
			fv = fv.Elem()
		}
		key := prefix + tagName(f)
		if fv.Kind() == reflect.Struct {
			leaves(fv, key+".", visit)
			continue
		}
		visit(key, f, fv)
	}
}

// check applies the range and oneof tags to every key of v.
func (d Decoder) check(v reflect.Value, prefix string, errs *[]error) {
	leaves(v, prefix, func(key string, f reflect.StructField, fv reflect.Value) {
		if r := f.Tag.Get("range"); r != "" {
			if fv.Kind() == reflect.Slice || fv.Kind() == reflect.Array {
				for j := range fv.Len() {
					if err := d.inRange(fv.Index(j), r, fmt.Sprintf("%s[%d]", key, j)); err != nil {
						*errs = append(*errs, err)
					}
				}
			} else if err := d.inRange(fv, r, key); err != nil {
				*errs = append(*errs, err)
			}
		}
		if o := f.Tag.Get("oneof"); o != "" {
			allowed := strings.Split(o, "|")
			if !slices.Contains(allowed, fv.String()) {
				*errs = append(*errs, fmt.Errorf("%s = %q: use one of %s", d.key(key), fv.String(), strings.Join(allowed, ", ")))
			}
		}
	})
}

// interval is a parsed range tag: [lo,hi], (lo,hi], ... with open or closed ends.
type interval struct {
	lo, hi         float64
	openLo, openHi bool
	malformed      bool
}

// parseRange reads a range tag "[lo,hi]", "(lo,hi)", "[0,inf)"; an empty or "inf"
// bound is no bound.
func parseRange(r string) interval {
	iv := interval{lo: math.Inf(-1), hi: math.Inf(1)}
	if len(r) < 3 || !strings.ContainsRune("[(", rune(r[0])) || !strings.ContainsRune("])", rune(r[len(r)-1])) {
		iv.malformed = true
		return iv
	}
	iv.openLo, iv.openHi = r[0] == '(', r[len(r)-1] == ')'
	lo, hi, ok := strings.Cut(r[1:len(r)-1], ",")
	if !ok {
		iv.malformed = true
		return iv
	}
	bound := func(s string, none float64) float64 {
		switch s = strings.TrimSpace(s); s {
		case "", "inf", "+inf", "-inf":
			return none
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			iv.malformed = true
		}
		return x
	}
	iv.lo, iv.hi = bound(lo, math.Inf(-1)), bound(hi, math.Inf(1))
	return iv
}

// contains reports whether x lies in the interval (NaN never does).
func (iv interval) contains(x float64) bool {
	if math.IsNaN(x) {
		return false
	}
	if x < iv.lo || (iv.openLo && x == iv.lo) {
		return false
	}
	return !(x > iv.hi || (iv.openHi && x == iv.hi))
}

// String says what the interval allows: ">= 0 and <= 1", "> 0".
func (iv interval) String() string {
	var parts []string
	if !math.IsInf(iv.lo, -1) {
		op := ">= "
		if iv.openLo {
			op = "> "
		}
		parts = append(parts, op+formatFloat(iv.lo))
	}
	if !math.IsInf(iv.hi, 1) {
		op := "<= "
		if iv.openHi {
			op = "< "
		}
		parts = append(parts, op+formatFloat(iv.hi))
	}
	if len(parts) == 0 {
		return "any number"
	}
	return strings.Join(parts, " and ")
}

// inRange checks a number field against a range tag.
func (d Decoder) inRange(fv reflect.Value, r, key string) error {
	iv := parseRange(r)
	if iv.malformed {
		return fmt.Errorf("%s: bad range tag %q (a bug in the struct's declaration)", key, r)
	}
	var x float64
	switch fv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x = float64(fv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x = float64(fv.Uint())
	case reflect.Float32, reflect.Float64:
		x = fv.Float()
	default:
		return fmt.Errorf("%s: a range tag on a %v field (a bug in the struct's declaration)", key, fv.Kind())
	}
	if !iv.contains(x) {
		return fmt.Errorf("%s = %s is out of range: allowed %s", d.key(key), formatFloat(x), iv)
	}
	return nil
}
