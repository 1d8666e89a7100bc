package rest

import "net/http"

// renamed is the data of POST /api/user/:user/rename/:new: the new name
// and how many memberships it took over.
type renamed struct {
	User  string `json:"user"`
	Moved int    `json:"moved"`
}

// renameRoute: POST /api/user/:user/rename/:new moves every membership of
// :user, global and scoped, to :new. It answers 200, not 201: nothing is
// created that a later GET could name, memberships change owner (moved is
// 0 when :user held none). 409 when :new holds memberships, unless
// ?merge=true.
func renameRoute() route {
	return route{
		method: http.MethodPost, path: "/api/user/:user/rename/:new", action: "rename_user",
		params: []param{{"user", "user"}, {"new", "user"}}, query: []string{"merge"}, write: true,
		resource: func(call *request) string { return call.cl.RenameResource(call.args[0], call.args[1]) },
		run: func(call *request) (int, string, any, error) {
			if err := readBody(call, &noFields{}, "no fields"); err != nil {
				return 0, "", nil, err
			}
			merge, err := flag(call, "merge")
			if err != nil {
				return 0, "", nil, err
			}
			moved, w, err := call.cl.Writes().RenameUser(call.ctx, call.args[0], call.args[1], merge)
			if err != nil {
				return 0, "", nil, err
			}
			call.wrote(w)
			return http.StatusOK, "user renamed", renamed{User: call.args[1], Moved: moved}, nil
		},
	}
}
