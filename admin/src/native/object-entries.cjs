/* global module */
// `object.entries`, the polyfill that node-polyglot (react-admin's translations) requires, is the browser's own:
// every browser the console is built for has had Object.entries since 2017, and the polyfill's helpers weigh 5 KB
// gzip. CommonJS, as the package it stands for, so that `require('object.entries')` is the function itself.
module.exports = Object.entries;
