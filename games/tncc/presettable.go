package tncc

import (
	"fmt"
	"strings"
)

// presetRows are the rows of the presets' table: each key of a preset, as
// a preset file names it, and its value in a preset.
var presetRows = func() []struct {
	key   string
	value func(p *Preset) string
} {
	type row = struct {
		key   string
		value func(p *Preset) string
	}
	var rows []row
	for r := range Resource(NumResources) {
		rows = append(rows, row{"start." + r.String(), func(p *Preset) string { return fmt.Sprint(p.Start[r]) }})
	}
	for r := range Resource(NumResources) {
		rows = append(rows, row{"steal." + r.String(), func(p *Preset) string { return p.Steal[r].String() }})
	}
	ratio := func(key string, f func(p *Preset) Ratio) row {
		return row{key, func(p *Preset) string { return f(p).String() }}
	}
	rows = append(rows,
		ratio("food_per_citizen", func(p *Preset) Ratio { return p.FoodPerCitizen }),
		ratio("gold_per_citizen", func(p *Preset) Ratio { return p.GoldPerCitizen }),
		ratio("food_per_soldier", func(p *Preset) Ratio { return p.FoodPerSoldier }),
		ratio("gold_per_soldier", func(p *Preset) Ratio { return p.GoldPerSoldier }),
		ratio("growth", func(p *Preset) Ratio { return p.Growth }),
		ratio("land_capacity", func(p *Preset) Ratio { return p.LandCapacity }),
		row{"gold_for_war", func(p *Preset) string { return fmt.Sprint(p.GoldForWar) }},
		ratio("defend_advantage", func(p *Preset) Ratio { return p.DefendAdvantage }),
		ratio("attack_advantage", func(p *Preset) Ratio { return p.AttackAdvantage }),
		row{"hunger_deaths", func(p *Preset) string { return fmt.Sprint(p.HungerDeaths) }},
		row{"max_cycles", func(p *Preset) string { return fmt.Sprint(p.MaxCycles) }},
	)
	return rows
}()

// PresetTable returns every built-in preset's numbers as a table for
// people, three presets a block so that it fits 80 columns: one row per key
// of a preset file, one column per preset.
func PresetTable() string {
	var b strings.Builder
	for start := 0; start < len(presets); start += 3 {
		block := presets[start:min(start+3, len(presets))]
		if start > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "  %-18s", "")
		for _, p := range block {
			fmt.Fprintf(&b, " %17s", p.Name)
		}
		b.WriteByte('\n')
		for _, r := range presetRows {
			fmt.Fprintf(&b, "  %-18s", r.key)
			for i := range block {
				fmt.Fprintf(&b, " %17s", r.value(&block[i]))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// PresetValues returns each built-in preset's numbers, by name, as its JSON
// writes them (a preset file's keys).
func PresetValues() []any {
	out := make([]any, len(presets))
	for i := range presets {
		out[i] = presets[i]
	}
	return out
}
