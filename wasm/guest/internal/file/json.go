package file

import "encoding/json"

func validJSON(b []byte) bool { return json.Valid(b) }
