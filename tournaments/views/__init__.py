"""Thin views: parse the request, call a service, render a template."""
