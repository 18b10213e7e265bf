/* Declarations of the Wokwi custom-chip API functions the TCS34725 stand-in uses, written from
 * the API documentation (docs.wokwi.com/chips-api), only to compile-check the chip in tests. */
#include <stdbool.h>
#include <stdint.h>

typedef int32_t pin_t;
typedef uint32_t i2c_dev_t;
enum pin_mode { INPUT = 0, OUTPUT = 1, INPUT_PULLUP = 2, INPUT_PULLDOWN = 3 };

typedef struct {
  void *user_data;
  uint32_t address;
  pin_t scl;
  pin_t sda;
  bool (*connect)(void *user_data, uint32_t address, bool read);
  uint8_t (*read)(void *user_data);
  bool (*write)(void *user_data, uint8_t data);
  void (*disconnect)(void *user_data);
  uint32_t reserved[8];
} i2c_config_t;

pin_t pin_init(const char *name, uint32_t mode);
uint32_t pin_read(pin_t pin);
uint32_t attr_init(const char *name, uint32_t default_value);
uint32_t attr_read(uint32_t attr_id);
i2c_dev_t i2c_init(const i2c_config_t *config);
