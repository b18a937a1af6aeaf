// Every e2e hook and test drives the real engine or removes a temp project that may hold an
// installed node_modules: jest's 5 s default failed CI on a loaded machine (an afterEach that
// disposed the tarball project). Tests with their own budget still pass it explicitly.
jest.setTimeout(5 * 60_000);
