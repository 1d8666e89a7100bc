package authz

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// An unreachable database is a typed error from Open, promptly: whether
// nothing listens on the port, or something accepts and never answers
// (the deadline of the context is what bounds it).
func TestOpenUnreachableDatabase(t *testing.T) {
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return addr
	}()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close() // hold it open, say nothing
		}
	}()
	for name, addr := range map[string]string{"refused": refused, "silent": silent.Addr().String()} {
		t.Run(name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.DatabaseType = "postgresql"
			cfg.PostgreSQLURL = "postgres://postgres@" + addr + "/test?sslmode=disable"
			ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
			defer cancel()
			start := time.Now()
			az, err := Open(ctx, cfg)
			if err == nil {
				az.Close()
				t.Fatal("Open succeeded on an unreachable database")
			}
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Open: %v, want ErrUnavailable", err)
			}
			if took := time.Since(start); took > 2500*time.Millisecond {
				t.Fatalf("Open took %v with a 1.5s deadline", took)
			}
		})
	}
}

// A store that goes away under an open value gives ErrUnavailable from
// every operation, never a panic.
func TestOperationsOnLostStore(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		c := mustClient(t, az, newKey())
		ctx := context.Background()
		c.AddRole(ctx, "r", "")
		az.db.DB.Close() // the connection pool is gone, as if the store were
		for name, op := range map[string]func() error{
			"AddRole":           func() error { _, err := c.AddRole(ctx, "x", ""); return err },
			"AddPermission":     func() error { _, err := c.AddPermission(ctx, "r", "p"); return err },
			"Roles":             func() error { _, err := c.Roles(ctx); return err },
			"UserHasPermission": func() error { _, err := c.UserHasPermission(ctx, "sara", "p"); return err },
			"WhichUsersCan":     func() error { _, err := c.WhichUsersCan(ctx, "p"); return err },
		} {
			if err := op(); !errors.Is(err, ErrUnavailable) {
				t.Errorf("%s on a lost store: %v, want ErrUnavailable", name, err)
			}
		}
	})
}
