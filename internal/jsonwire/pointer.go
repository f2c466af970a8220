package jsonwire

// AppendPointerToken appends one RFC 6901 reference token ("~" as "~0", "/"
// as "~1") preceded by "/".
func AppendPointerToken(dst []byte, name string) []byte {
	dst = append(dst, '/')
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, name[i])
		}
	}
	return dst
}
