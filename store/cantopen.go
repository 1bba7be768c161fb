package store

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite says only "unable to open database file (14)" (SQLITE_CANTOPEN)
// whatever stopped it: a directory that does not exist, a file where the
// directory should be, or, most often, a directory the process may not
// write, such as a fresh Docker volume owned by root under an image that
// runs as uid 65532. An admin needs the directory and the uid to fix it,
// so Open looks and says which.

// cantOpenReason is what stops SQLite creating or opening a database file.
type cantOpenReason int

const (
	reasonUnknown      cantOpenReason = iota // nothing found: permissions look right
	reasonNoDirectory                        // the file's directory does not exist
	reasonNotDir                             // a file stands where a directory should be
	reasonDirReadOnly                        // the directory cannot be written (the file does not exist yet)
	reasonFileReadOnly                       // the file exists and cannot be written
	reasonDirIsFile                          // the database path names a directory
)

// cantOpenError is the one-line start-up failure for a SQLite file that
// cannot be created or opened. It keeps the driver's error for the log and
// matches ErrUnavailable, as every SQLITE_CANTOPEN does.
type cantOpenError struct {
	msg string
	err error
}

func (e *cantOpenError) Error() string        { return e.msg }
func (e *cantOpenError) Unwrap() error        { return e.err }
func (e *cantOpenError) Is(target error) bool { return target == ErrUnavailable }

// explainCantOpen turns SQLite's SQLITE_CANTOPEN for path into a
// *cantOpenError that names the directory and this process's uid; any
// other error is returned unchanged.
func explainCantOpen(path string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_CANTOPEN {
		return err
	}
	reason, at := diagnoseCantOpen(path)
	return &cantOpenError{msg: cantOpenMessage(path, at, os.Getuid(), reason), err: err}
}

// diagnoseCantOpen looks at the file system to find why path cannot be
// opened, and which path (the file, its directory or an ancestor) is at
// fault. Writability is found by trying, so it holds for any uid,
// capabilities, ACLs and read-only mounts alike.
func diagnoseCantOpen(path string) (cantOpenReason, string) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return reasonDirIsFile, path
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return reasonFileReadOnly, path
		}
		_ = f.Close()
		// The file can be written; SQLite also creates path-wal and
		// path-shm beside it.
		if !writable(dir) {
			return reasonDirReadOnly, dir
		}
		return reasonUnknown, dir
	}
	// The nearest ancestor that exists says whether the directory is
	// missing or something else stands in its way.
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err == nil {
			switch {
			case !fi.IsDir():
				return reasonNotDir, p
			case p != dir:
				return reasonNoDirectory, dir
			case !writable(dir):
				return reasonDirReadOnly, dir
			}
			return reasonUnknown, dir
		}
		if filepath.Dir(p) == p {
			return reasonNoDirectory, dir
		}
	}
}

// writable reports whether this process can create a file in dir.
func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".recordsbot-write-check-*")
	if err != nil {
		return false
	}
	_ = f.Close()
	// A probe left behind is empty and its name says what it is; the
	// question was only whether it could be made.
	_ = os.Remove(f.Name())
	return true
}

// cantOpenMessage is the one line an admin reads: the database path, what
// stands in the way at path at, and the uid the process runs as. The
// binary puts the variable's name in front: "DATABASE_URL: cannot create
// or open /var/lib/recordsbot/recordsbot.db: directory /var/lib/recordsbot
// is not writable by uid 65532".
func cantOpenMessage(path, at string, uid int, reason cantOpenReason) string {
	who := "uid " + strconv.Itoa(uid)
	var why string
	switch reason {
	case reasonNoDirectory:
		why = "directory " + at + " does not exist (create it, writable by " + who + ")"
	case reasonNotDir:
		why = at + " is a file, not a directory"
	case reasonDirReadOnly:
		why = "directory " + at + " is not writable by " + who
	case reasonFileReadOnly:
		why = "file " + at + " is not writable by " + who
	case reasonDirIsFile:
		why = at + " is a directory; name a file in it"
	default:
		why = "SQLite could not open it as " + who + " (unable to open database file)"
	}
	return "cannot create or open " + path + ": " + why
}
