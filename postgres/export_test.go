package postgres

// MapErr exposes mapErr to the tests.
var MapErr = mapErr
