// TCS34725 stand-in for the Wokwi simulator (a custom chip): answers at I2C address 0x29 with the
// TCS34725's register map, ID 0x44, and red/green/blue/clear counts taken from the sliders.
// While the LED pin is low (sensor LED off) it reports only the ambient share of those counts,
// so the firmware's dark and white calibration steps see a difference.
// Written for the castillo kit from the TCS34725 datasheet's register description.

#include "wokwi-api.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ADDRESS 0x29
#define REG_ENABLE 0x00
#define REG_ID 0x12
#define REG_STATUS 0x13
#define REG_CDATAL 0x14
#define CHIP_ID 0x44
#define CMD_BIT 0x80
#define CMD_TYPE_MASK 0x60
#define CMD_AUTO_INCREMENT 0x20
#define CMD_SPECIAL 0x60

typedef struct {
  uint8_t regs[32];
  uint8_t address;       // register pointer
  bool auto_increment;
  bool expect_command;   // the first byte of a write is the command byte
  pin_t led;
  uint32_t red, green, blue, ambient;
} chip_state_t;

static bool on_connect(void *user_data, uint32_t address, bool read);
static uint8_t on_read(void *user_data);
static bool on_write(void *user_data, uint8_t data);
static void on_disconnect(void *user_data);

void chip_init(void) {
  chip_state_t *chip = malloc(sizeof(chip_state_t));
  memset(chip, 0, sizeof(chip_state_t));
  chip->regs[REG_ID] = CHIP_ID;
  chip->regs[0x01] = 0xFF;  // ATIME reset value
  chip->led = pin_init("LED", INPUT);
  chip->red = attr_init("red", 6000);
  chip->green = attr_init("green", 3000);
  chip->blue = attr_init("blue", 2000);
  chip->ambient = attr_init("ambient", 5);
  const i2c_config_t config = {
      .user_data = chip,
      .address = ADDRESS,
      .scl = pin_init("SCL", INPUT),
      .sda = pin_init("SDA", INPUT),
      .connect = on_connect,
      .read = on_read,
      .write = on_write,
      .disconnect = on_disconnect,
  };
  i2c_init(&config);
}

static void put16(chip_state_t *chip, uint8_t reg, uint32_t value) {
  if (value > 0xFFFF) value = 0xFFFF;
  chip->regs[reg] = value & 0xFF;
  chip->regs[reg + 1] = (value >> 8) & 0xFF;
}

// Refresh STATUS and the four data registers from the sliders and the LED pin.
static void sample(chip_state_t *chip) {
  uint32_t percent = pin_read(chip->led) ? 100 : attr_read(chip->ambient);
  uint32_t r = attr_read(chip->red) * percent / 100;
  uint32_t g = attr_read(chip->green) * percent / 100;
  uint32_t b = attr_read(chip->blue) * percent / 100;
  uint32_t c = r + g + b;
  bool running = (chip->regs[REG_ENABLE] & 0x03) == 0x03;  // PON and AEN
  chip->regs[REG_STATUS] = running ? 0x01 : 0x00;           // AVALID
  put16(chip, REG_CDATAL, running ? c : 0);
  put16(chip, REG_CDATAL + 2, running ? r : 0);
  put16(chip, REG_CDATAL + 4, running ? g : 0);
  put16(chip, REG_CDATAL + 6, running ? b : 0);
}

static bool on_connect(void *user_data, uint32_t address, bool read) {
  chip_state_t *chip = user_data;
  (void)address;
  chip->expect_command = !read;
  if (read) sample(chip);
  return true;
}

static uint8_t on_read(void *user_data) {
  chip_state_t *chip = user_data;
  uint8_t value = chip->regs[chip->address & 0x1F];
  if (chip->auto_increment) chip->address = (chip->address + 1) & 0x1F;
  return value;
}

static bool on_write(void *user_data, uint8_t data) {
  chip_state_t *chip = user_data;
  if (chip->expect_command) {
    chip->expect_command = false;
    if (!(data & CMD_BIT)) return false;
    if ((data & CMD_TYPE_MASK) == CMD_SPECIAL) return true;  // interrupt clear: nothing latched
    chip->address = data & 0x1F;
    chip->auto_increment = (data & CMD_TYPE_MASK) == CMD_AUTO_INCREMENT;
    return true;
  }
  uint8_t reg = chip->address & 0x1F;
  if (reg != REG_ID && reg != REG_STATUS && reg < REG_CDATAL) chip->regs[reg] = data;
  if (chip->auto_increment) chip->address = (chip->address + 1) & 0x1F;
  return true;
}

static void on_disconnect(void *user_data) {
  (void)user_data;
}
