package apiclient

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestListMemoStaysWithinItsBound(t *testing.T) {
	t.Parallel()
	m := &listMemo{max: 10}
	page := func(n int) *pageMemo { return &pageMemo{etag: `"x"`, actions: make([]Action, n)} }
	for i := range 200 {
		m.put(fmt.Sprintf("u%d", i%7), page(i%5+1))
		assert.LessOrEqual(t, m.held, m.max)
		total := 0
		for _, p := range m.pages {
			total += len(p.actions)
		}
		assert.Equal(t, total, m.held, "held counts what is remembered")
		assert.LessOrEqual(t, len(m.order), 4*len(m.pages)+65)
	}
	m.put("newest", page(4))
	assert.NotNil(t, m.get("newest", false))
	assert.Nil(t, m.get("newest", true), "a memo decoded without Raw does not serve a request for Raw")

	m.put("newest", &pageMemo{actions: make([]Action, 1)})
	assert.Nil(t, m.get("newest", false), "a page sent without validators is forgotten")
	m.put("huge", page(11))
	assert.Nil(t, m.get("huge", false), "a page larger than the bound is not remembered")
}
