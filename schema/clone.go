package schema

import "reflect"

// Clone is a deep copy of the plan to hand out (Harness.Spec, Turn.Spec):
// changing any map, slice, pointer or component config reachable from it
// changes nothing of s, so what runs stays what was loaded. It holds no
// compiled rules (Rules is nil): those are the policy's. The unexported
// position and transport tables are shared; nothing outside this package
// can change them.
func (s *Spec) Clone() *Spec {
	if s == nil {
		return nil
	}
	c := *s
	c.Rules = nil
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() {
			deepCopy(v.Field(i))
		}
	}
	return &c
}

// deepCopy replaces, in place, every map, slice and pointer reachable
// from v through exported fields with a copy of its own. v is settable.
func deepCopy(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(v.Elem())
		deepCopy(p.Elem())
		v.Set(p)
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(s, v)
		for i := range s.Len() {
			deepCopy(s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		if v.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			deepCopy(e)
			m.SetMapIndex(it.Key(), e)
		}
		v.Set(m)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := reflect.New(v.Elem().Type()).Elem()
		e.Set(v.Elem())
		deepCopy(e)
		v.Set(e)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				deepCopy(v.Field(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			deepCopy(v.Index(i))
		}
	}
}
