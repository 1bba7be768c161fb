package actions

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemberEqualComparesEveryField changes each field of a Member in
// turn: Equal must notice every one, so a field added to Member (which
// what is drawn for a person may depend on) cannot be missed by the
// /actions reply memo.
func TestMemberEqualComparesEveryField(t *testing.T) {
	t.Parallel()
	base := Member{ID: "U1", Email: "a@example.org", Name: "A", Zone: time.UTC, aliases: []string{"a"}}
	require.True(t, base.Equal(base))
	other := map[reflect.Kind]func(reflect.Type) reflect.Value{
		reflect.String: func(reflect.Type) reflect.Value { return reflect.ValueOf("changed") },
		reflect.Bool:   func(reflect.Type) reflect.Value { return reflect.ValueOf(true) },
		reflect.Int:    func(reflect.Type) reflect.Value { return reflect.ValueOf(7) },
		reflect.Pointer: func(tp reflect.Type) reflect.Value {
			return reflect.New(tp.Elem())
		},
		reflect.Slice: func(tp reflect.Type) reflect.Value {
			s := reflect.MakeSlice(tp, 1, 1)
			if tp.Elem().Kind() == reflect.String {
				s.Index(0).SetString("changed")
			}
			return s
		},
	}
	typ := reflect.TypeFor[Member]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			make, ok := other[f.Type.Kind()]
			require.True(t, ok, "no way to change a %s field in this test: add one", f.Type)
			m := base
			v := reflect.ValueOf(&m).Elem().Field(i)
			v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
			v.Set(make(f.Type).Convert(f.Type))
			assert.False(t, base.Equal(m), "Equal misses a change of %s", f.Name)
		})
	}
}
