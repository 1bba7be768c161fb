package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/demo"
)

// sandbox runs the in-memory Records API with the demo dataset on loopback,
// for local development against a real `serve`.
// port is PORT, or 8080 when PORT is not set; keySpec is SANDBOX_KEYS.
func sandbox(ctx context.Context, port int, keySpec string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	keys := map[string][]recordsfake.Scope{}
	if strings.TrimSpace(keySpec) != "" {
		k, err := recordsfake.ParseKeys(keySpec)
		if err != nil {
			return &configError{name: "SANDBOX_KEYS", msg: "SANDBOX_KEYS: " + err.Error()}
		}
		keys = k
	} else {
		keys[randomKey()] = []recordsfake.Scope{recordsfake.ScopeActionsRead, recordsfake.ScopeActionsWrite, recordsfake.ScopeMeetingsRead}
	}
	rs := recordsfake.NewHandler(recordsfake.WithKeys(keys), recordsfake.WithDataset(demo.Dataset(time.Now())))
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("listen on 127.0.0.1:%d: %w", port, err)
	}
	base := "http://" + ln.Addr().String() + "/api/v1"
	fmt.Fprintf(stdout, "records sandbox: %s\n", base)
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		var scopes []string
		for _, s := range keys[k] {
			scopes = append(scopes, string(s))
		}
		fmt.Fprintf(stdout, "  key %s  scopes %s\n", k, strings.Join(scopes, " "))
	}
	fmt.Fprintf(stdout, "try: RECORDS_API_URL=%s RECORDS_API_KEY=%s AUDIT_KEY=$(openssl rand -hex 32) recordsbot serve\n", base, names[0])
	srv := &http.Server{Handler: rs.Handler(), ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}
