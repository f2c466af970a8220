package schema

func executeRational(src string) ([]byte, error) { panic("todo") }
