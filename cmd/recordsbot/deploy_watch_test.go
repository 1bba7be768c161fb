package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeployWatchCronJob checks the watcher's CronJob against the binary:
// the watch subcommand, the bot's image, every variable watch needs (the
// shared store's DATABASE_URL from the Secret), one run at a time, and the
// same hardening as the other pods.
func TestDeployWatchCronJob(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	botPod, _ := workloads(t, objs)
	cron := spec[struct {
		ConcurrencyPolicy string `json:"concurrencyPolicy"`
		Schedule          string `json:"schedule"`
		JobTemplate       struct {
			Spec struct {
				ActiveDeadlineSeconds int         `json:"activeDeadlineSeconds"`
				Template              podTemplate `json:"template"`
			} `json:"spec"`
		} `json:"jobTemplate"`
	}](t, one(t, objs, "CronJob", "recordsbot-watch"))
	pod := cron.JobTemplate.Spec.Template
	require.Len(t, pod.Spec.Containers, 1)
	c := pod.Spec.Containers[0]

	var usageOut bytes.Buffer
	require.NoError(t, run(t.Context(), Config{}, []string{"help"}, strings.NewReader(""), &usageOut, &usageOut))
	require.NotEmpty(t, c.Args)
	assert.Equal(t, "watch", c.Args[0])
	assert.Regexp(t, `(?m)^  watch `, usageOut.String(), "recordsbot knows the subcommand")
	assert.Equal(t, botPod.Spec.Containers[0].Image, c.Image, "the bot and the watcher run the same image")
	assert.Empty(t, c.Command)

	assert.Equal(t, "Forbid", cron.ConcurrencyPolicy, "one poll at a time (the store's lock covers the rest)")
	assert.Len(t, strings.Fields(cron.Schedule), 5)
	assert.Less(t, cron.JobTemplate.Spec.ActiveDeadlineSeconds, 600, "a run ends within the poll lock's 10-minute ttl")
	assert.Contains(t, []string{"Never", "OnFailure"}, pod.Spec.RestartPolicy)

	vars := configVars(t)
	secret := one(t, objs, "Secret", "")
	env := map[string]bool{}
	for _, e := range c.Env {
		env[e.Name] = true
		_, known := vars[e.Name]
		assert.True(t, known, "%s is not a variable recordsbot reads", e.Name)
		if isSecretVar(e.Name) || e.Name == "DATABASE_URL" {
			require.NotNil(t, e.ValueFrom, "%s must come from the Secret", e.Name)
			require.NotNil(t, e.ValueFrom.SecretKeyRef, e.Name)
			assert.Equal(t, secret.Metadata.Name, e.ValueFrom.SecretKeyRef.Name)
			assert.Contains(t, secretKeys(t, secret), e.ValueFrom.SecretKeyRef.Key, "the Secret template documents %s", e.Name)
		}
	}
	for _, ef := range c.EnvFrom {
		require.NotNil(t, ef.ConfigMapRef)
		for k := range one(t, objs, "ConfigMap", ef.ConfigMapRef.Name).Data {
			env[k] = true
		}
	}
	for _, v := range vars {
		if slices.Contains(v.needs, "watch") {
			assert.True(t, env[v.name], "watch needs %s", v.name)
		}
	}
	assert.True(t, env["DATABASE_URL"], "the watcher needs the shared store, not a pod's own SQLite file")

	for _, r := range []string{"cpu", "memory"} {
		assert.NotEmpty(t, c.Resources.Requests[r])
		assert.NotEmpty(t, c.Resources.Limits[r])
	}
	require.NotNil(t, pod.Spec.SecurityContext.RunAsNonRoot)
	assert.True(t, *pod.Spec.SecurityContext.RunAsNonRoot)
	require.NotNil(t, c.SecurityContext)
	require.NotNil(t, c.SecurityContext.ReadOnlyRootFilesystem)
	assert.True(t, *c.SecurityContext.ReadOnlyRootFilesystem)
	require.NotNil(t, c.SecurityContext.AllowPrivilegeEscalation)
	assert.False(t, *c.SecurityContext.AllowPrivilegeEscalation)
	assert.Contains(t, c.SecurityContext.Capabilities.Drop, "ALL")
	require.NotNil(t, pod.Spec.AutomountServiceAccountToken)
	assert.False(t, *pod.Spec.AutomountServiceAccountToken)
}
