// Package sample is literalcheck's test input: what it must find and what
// it must pass.
package sample

import (
	"errors"
	"fmt"
	"log/slog"
)

type lang struct{}

func (lang) T(key string) string { return key }

func reply(l lang, logger *slog.Logger, id, status string) (string, error) {
	logger.Info("status change refused", "action", id)
	if status == "in progress" {
		return l.T("status.in_progress"), nil
	}
	switch status {
	case "Back to open":
		return "", errors.New("cannot go back to open")
	}
	if id == "" {
		return "Nothing was changed.", fmt.Errorf("no action id given")
	}
	if status == "" {
		return fmt.Sprintf(":mag: I couldn't find `%s`.", id), nil
	}
	return "Start", nil
}

var label = struct {
	Value string `json:"value,omitempty" doc:"the value people never read"`
	Label string
}{Value: "digest", Label: "Weekly digest"}
