package recordstest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRecaseName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		cs   Casing
		want string
	}{
		{"due_date", Snake, "due_date"},
		{"due_date", Camel, "dueDate"},
		{"due_date", Kebab, "due-date"},
		{"due_date", Pascal, "DueDate"},
		{"id", Camel, "id"},
		{"id", Pascal, "Id"},
		{"next_cursor", Camel, "nextCursor"},
		{"@odata.nextLink", Pascal, "@odata.nextLink"},
		{"_links", Pascal, "_links"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, recaseName(tt.in, tt.cs), "%q in casing %d", tt.in, tt.cs)
	}
}

func TestPutAnswerDefaults(t *testing.T) {
	t.Parallel()
	// Each dialect's own answer to a PUT, as its convention has it.
	assert.Equal(t, PutEnvelope, DialectDefault.resolve(Plain))
	assert.Equal(t, PutEnvelope, DialectDefault.resolve(JSONAPI))
	assert.Equal(t, PutRow, DialectDefault.resolve(HAL))
	assert.Equal(t, PutNoContent, DialectDefault.resolve(OData))
	assert.Equal(t, PutNoContent, DialectDefault.resolve(PostgREST))
	assert.Equal(t, PutArray, PutArray.resolve(OData), "an explicit choice wins")
}
