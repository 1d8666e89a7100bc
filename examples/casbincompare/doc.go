// Package casbincompare holds the tests that hold rolegate's Casbin import
// against Casbin itself, on Casbin's own files as published: the examples
// folder and the *_test.go of the github.com/casbin/casbin/v2 module that
// go.mod requires, read from the module directory (nothing is copied).
//
//   - TestExamples: every RBAC example of the folder. The ones rolegate's
//     model expresses (rbac, rbac_with_hierarchy, rbac_with_resource_roles,
//     rbac_with_domains with both its policies, and
//     rbac_with_hierarchy_with_domains) import whole, and every user and
//     every role of the file agrees with Casbin's Enforce on every object,
//     action and domain the file names. Every other one is refused before
//     anything is written (or would have to agree everywhere).
//   - TestCasbinExpectations: the expectations of Casbin's own tests on
//     those files (decisions, roles, users and permissions) are met by
//     rolegate's REST routes.
//
// A policy is imported the way "rolegatectl import casbin --model" does
// (casbinimport.Import, one batch), and rolegate answers over its REST API
// on loopback. It is a module of its own so that Casbin stays out of
// rolegate's dependencies.
//
//	cd examples/casbincompare && go test ./...
package casbincompare
