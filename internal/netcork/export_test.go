package netcork

// Control runs f on c's descriptor, for tests that read the socket's
// options.
func Control(c *Conn, f func(fd uintptr)) { c.raw.Control(f) }
