package main

func newTune() *Command { return &Command{UsageLine: "tune", Flag: nil} }
func newDemo() *Command { return &Command{UsageLine: "demo", Flag: nil} }
