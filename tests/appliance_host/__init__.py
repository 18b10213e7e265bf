"""The app's side of the appliance (issue 26): its own Wi-Fi, the kiosk, the machine's names,
the pairing code renewed by SIGHUP. The package, its units and the updater: tests/appliance."""
