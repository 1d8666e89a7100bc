package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/joho/godotenv"
)

// settings are the host app's own: where it listens and how verbosely.
// They are not rolegate's (a library does not choose the listen address
// or Gin's global mode), but they keep the AUTH_ names the README lists.
type settings struct {
	host  string // AUTH_SERVER_HOST (127.0.0.1)
	port  int    // AUTH_SERVER_PORT (8000; 0 picks a free port)
	debug bool   // AUTH_DEBUG_MODE: Gin's debug mode and debug logs (false)
}

// settingsFromEnv reads the environment, then a .env file in the working
// directory, like authz.ConfigFromEnv; every bad value is reported.
func settingsFromEnv() (settings, error) {
	file, err := godotenv.Read()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return settings{}, fmt.Errorf("cannot read .env: %w", err)
	}
	get := func(k string) string {
		if v, ok := os.LookupEnv(k); ok {
			return strings.TrimSpace(v)
		}
		return strings.TrimSpace(file[k])
	}
	s := settings{host: "127.0.0.1", port: 8000}
	var errs []error
	if v := get("AUTH_SERVER_HOST"); v != "" {
		s.host = v
	}
	if v := get("AUTH_SERVER_PORT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 65535 {
			errs = append(errs, fmt.Errorf("AUTH_SERVER_PORT=%q is not a port (0 to 65535)", v))
		}
		s.port = n
	}
	if v := get("AUTH_DEBUG_MODE"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("AUTH_DEBUG_MODE=%q is not true or false", v))
		}
		s.debug = b
	}
	return s, errors.Join(errs...)
}
