package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// List names one of the lists that Each, EachMember, Names and Members
// read (and Count counts). Of is what the list is of: a role, a user or a
// permission.
type List int

// The lists. The "global" lists count the global memberships only; with a
// scope, EachMember and Members add the memberships in that scope.
const (
	// PermissionsOfRole: a role's own permissions (of a role;
	// ErrRoleNotFound when it does not exist).
	PermissionsOfRole List = iota + 1
	// EffectivePermissionsOfRole: a role's permissions, its own and
	// inherited (of a role; ErrRoleNotFound).
	EffectivePermissionsOfRole
	// MembersOfRole: a role's direct members (of a role; ErrRoleNotFound).
	MembersOfRole
	// ParentsOfRole: the roles a role inherits from directly (of a role;
	// ErrRoleNotFound).
	ParentsOfRole
	// ChildrenOfRole: the roles that inherit from a role directly (of a
	// role; ErrRoleNotFound).
	ChildrenOfRole
	// RolesOfUser: the roles a user is a member of (of a user).
	RolesOfUser
	// PermissionsOfUser: the permissions a user holds through its
	// memberships, inherited ones included (of a user).
	PermissionsOfUser
	// RolesWithPermission: the roles that hold a permission, granted or
	// inherited (of a permission).
	RolesWithPermission
	// RolesGrantedPermission: the roles granted a permission directly, not
	// through inheritance (of a permission).
	RolesGrantedPermission
	// UsersWithPermission: the users that hold a permission through a
	// membership of a role granted it or inheriting it (of a permission).
	UsersWithPermission
	// UsersWithMembership: the users that hold at least one membership,
	// global or in any scope (of nothing: of is "").
	UsersWithMembership
	// Roles: the namespace's roles (of nothing). EachRole reads them, with
	// their descriptions; Each, EachMember, Names and Members do not.
	Roles
)

func (l List) String() string {
	switch l {
	case PermissionsOfRole:
		return "permissions of role"
	case EffectivePermissionsOfRole:
		return "effective permissions of role"
	case MembersOfRole:
		return "members of role"
	case ParentsOfRole:
		return "parents of role"
	case ChildrenOfRole:
		return "children of role"
	case RolesOfUser:
		return "roles of user"
	case PermissionsOfUser:
		return "permissions of user"
	case RolesWithPermission:
		return "roles with permission"
	case RolesGrantedPermission:
		return "roles granted permission"
	case UsersWithPermission:
		return "users with permission"
	case UsersWithMembership:
		return "users with membership"
	case Roles:
		return "roles"
	}
	return fmt.Sprintf("List(%d)", int(l))
}

func errNoList(l List, how string) error {
	return fmt.Errorf("storage: the list %v cannot be read %s", l, how)
}

// Each calls fn with the entries of list l of of, window by window, sorted
// (see ListWindow); an ErrRoleNotFound comes before any call. With a
// scope, PermissionsOfUser counts the user's memberships in that scope as
// well as the global ones; the other lists take no scope (EachMember
// reads them with one).
func Each(ctx context.Context, db bun.IDB, s Scope, l List, scope, of string, w ListWindow, fn func([]string) error) error {
	if scope != "" {
		if l != PermissionsOfUser {
			return errNoList(l, "with a scope by Each")
		}
		return eachUserPermissionIn(ctx, db, s, scope, of, w, fn)
	}
	switch l {
	case PermissionsOfRole:
		return eachRolePermission(ctx, db, s, of, w, fn)
	case EffectivePermissionsOfRole:
		return eachRoleEffectivePermission(ctx, db, s, of, w, fn)
	case MembersOfRole:
		return eachRoleMember(ctx, db, s, of, w, fn)
	case ParentsOfRole:
		return eachRoleParent(ctx, db, s, of, w, fn)
	case ChildrenOfRole:
		return eachRoleChild(ctx, db, s, of, w, fn)
	case RolesOfUser:
		return eachUserRole(ctx, db, s, of, w, fn)
	case PermissionsOfUser:
		return eachUserPermission(ctx, db, s, of, w, fn)
	case RolesWithPermission:
		return eachWhichRoleCan(ctx, db, s, of, w, fn)
	case UsersWithPermission:
		return eachWhichUserCan(ctx, db, s, of, w, fn)
	case UsersWithMembership:
		return eachUser(ctx, db, s, w, fn)
	}
	return errNoList(l, "by Each")
}

// EachMember calls fn with the entries of MembersOfRole, RolesOfUser or
// UsersWithPermission globally (Scope empty) and in scope, window by
// window, sorted by name then scope. A page cut by w.Limit never ends
// between a name's global and scoped entries: the twin is sent too, so the
// next page, read with After set to the last name, loses nothing.
// UsersWithPermission gives one entry per user (Scope empty when a global
// membership grants it).
func EachMember(ctx context.Context, db bun.IDB, s Scope, l List, scope, of string, w ListWindow, fn func([]Member) error) error {
	switch l {
	case MembersOfRole:
		return eachRoleMemberIn(ctx, db, s, scope, of, w, fn)
	case RolesOfUser:
		return eachUserRoleIn(ctx, db, s, scope, of, w, fn)
	case UsersWithPermission:
		return eachWhichUserCanIn(ctx, db, s, scope, of, w, fn)
	}
	return errNoList(l, "by EachMember")
}

// Names returns the whole list l of of, sorted and deduplicated, in one
// read: for the library API, which answers with slices.
func Names(ctx context.Context, db bun.IDB, s Scope, l List, of string) ([]string, error) {
	switch l {
	case PermissionsOfRole:
		return rolePermissions(ctx, db, s, of)
	case EffectivePermissionsOfRole:
		return roleEffectivePermissions(ctx, db, s, of)
	case MembersOfRole:
		return roleMembers(ctx, db, s, of)
	case ParentsOfRole:
		return roleParents(ctx, db, s, of)
	case RolesOfUser:
		return userRoles(ctx, db, s, of)
	case PermissionsOfUser:
		return userPermissions(ctx, db, s, of)
	case RolesWithPermission:
		return whichRolesCan(ctx, db, s, of)
	case RolesGrantedPermission:
		return rolesGranting(ctx, db, s, of)
	case UsersWithPermission:
		return whichUsersCan(ctx, db, s, of)
	case UsersWithMembership:
		out := []string{}
		err := eachUser(ctx, db, s, ListWindow{}, func(p []string) error { out = append(out, p...); return nil })
		return out, err
	}
	return nil, errNoList(l, "by Names")
}

// Members returns the whole list MembersOfRole, RolesOfUser or
// UsersWithPermission of of, globally (Scope empty) and, unless scope is
// "", in scope, sorted by name then scope, in one read. UsersWithPermission
// gives one entry per user (the global one when there is one).
func Members(ctx context.Context, db bun.IDB, s Scope, l List, scope, of string) ([]Member, error) {
	switch l {
	case MembersOfRole:
		return roleMembersIn(ctx, db, s, scope, of)
	case RolesOfUser:
		return userMemberships(ctx, db, s, scope, of)
	case UsersWithPermission:
		return whichUsersCanIn(ctx, db, s, scope, of)
	}
	return nil, errNoList(l, "by Members")
}
