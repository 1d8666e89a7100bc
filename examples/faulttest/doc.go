// Package faulttest holds a fault test of examples/hostapp on PostgreSQL:
// it starts a PostgreSQL server of its own (initdb and pg_ctl from the
// installed server binaries, in a temp folder, on a free port), runs the
// host app on it under light load, stops PostgreSQL, checks that guards
// and the REST API fail closed with 503, starts PostgreSQL again and
// checks that everything works again without restarting the app within
// 5 s and that no acknowledged write was lost.
//
//	go test -v -run TestPostgreSQLOutage ./examples/faulttest
//
// It skips when the PostgreSQL server binaries are not installed (it
// looks on PATH and under /usr/lib/postgresql/*/bin), unless CI=true, and
// under -short. initdb refuses to run as root, so when the test runs as
// root it runs initdb, pg_ctl and the server as the "postgres" OS user.
package faulttest
