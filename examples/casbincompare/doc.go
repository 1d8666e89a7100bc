// Package casbincompare holds a test that runs Casbin and rolegate on the
// same Casbin example policies and compares every check: the policy is
// imported the way "rolegatectl import casbin" does (casbinimport.Convert,
// one batch), and rolegate answers over its REST API on loopback. It is a
// module of its own so that Casbin stays out of rolegate's dependencies.
//
//	cd examples/casbincompare && go test ./...
//
// The tests of models with role hierarchies and domains need rolegate's
// decision engine v2 and carry the build tag enginev2:
//
//	go test -tags enginev2 ./...
package casbincompare
