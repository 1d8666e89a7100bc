package authz

import (
	"fmt"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rest"
)

// The admin plane's permissions: held in the host's namespace (the client
// of Config.ClientKey) like any other permission, they let the host's own
// users use the REST admin API and the console without a client key when
// Config.AdminUsers is on.
const (
	// PermAdmin lets a person use every admin route of the host's
	// namespace: roles, grants, memberships, inheritance, renames, batch,
	// audit and every list.
	PermAdmin = rest.PermAdmin
	// PermRead lets a person use every read route.
	PermRead = rest.PermRead
	// PermMembers lets a person add and remove memberships, only where
	// she holds it (held in scope S: in S only; held globally: anywhere),
	// and only of roles whose every effective permission she holds there
	// herself and none of which is reserved (403 naming the permission
	// otherwise). She can never hand out more than she has.
	PermMembers = rest.PermMembers
)

// ReservedPermission reports whether name is one of the admin plane's
// permissions (PermAdmin, PermRead, PermMembers).
func ReservedPermission(name string) bool { return rest.Reserved(name) }

// checkGrantable refuses, in open mode, a grant of a reserved name: open
// mode has no admin plane for people, and a namespace holding such a
// grant would turn into one the day the store is run with that key as
// AUTH_CLIENT_KEY.
func (c *Client) checkGrantable(name string) error {
	if c.az.open() && rest.Reserved(name) {
		return fmt.Errorf("%w: %s is reserved for the admin plane, which open mode does not have", ErrInvalidName, name)
	}
	return nil
}

// people is the admin plane's rest.People: the guards' resolver finds
// the person, and the host's client is the only namespace she reaches.
type people struct{ az *Authz }

var _ rest.People = people{}

func (p people) Person(c *gin.Context) (string, error) { return p.az.resolver(c) }
func (p people) Host() rest.Caller                     { return restCaller{p.az.host} }

// restPeople is the REST API's People: nil unless Config.AdminUsers.
func (az *Authz) restPeople() rest.People {
	if !az.cfg.AdminUsers || az.host == nil {
		return nil
	}
	return people{az}
}
